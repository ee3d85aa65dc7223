import { useState, type FormEvent } from 'react'
import { useQuery } from '@tanstack/react-query'
import { Trans, useLingui } from '@lingui/react/macro'
import type { ConsoleCustomer } from '../../contract/console-customers'
import { button } from '../../ui/button.css'
import type { Column } from '../../ui/data-list'
import { EmptyState } from '../../ui/empty-state'
import { TextField } from '../../ui/field'
import { AppLink, useAppNavigate } from '../../ui/nav'
import { PagedTable } from '../../ui/paged-table'
import { Price } from '../../ui/price'
import * as surface from '../../ui/surface.css'
import { AccountTypeLabel, DisabledBadge, EmailAddress } from './customer-labels'
import { customerQueries } from './customers-queries'
import * as styles from './console.css'

/** Customers: search by username, phone or e-mail; each opens its account. */
export function CustomersPage({ q, page }: { q: string; page: number }) {
  const { t } = useLingui()
  const navigate = useAppNavigate()
  const [text, setText] = useState(q)
  const query = useQuery(customerQueries.search(q, page))
  const submit = (event: FormEvent) => {
    event.preventDefault()
    void navigate({ to: '/admin/customers', search: { q: text.trim(), page: 1 } })
  }
  const open = (c: ConsoleCustomer, content: React.ReactNode) => (
    <AppLink to="/admin/customers/$id" params={{ id: String(c.id) }}>
      {content}
    </AppLink>
  )
  const columns: Column<ConsoleCustomer>[] = [
    { header: t`Customer`, cell: (c) => open(c, <bdi>{c.username}</bdi>), primary: true },
    { header: t`Phone`, cell: (c) => <bdi dir="ltr">{c.phone_number}</bdi> },
    { header: t`E-mail`, cell: (c) => (c.email ? <EmailAddress address={c.email} /> : '—') },
    { header: t`Balance`, cell: (c) => <Price amount={c.balance} currency={c.currency} /> },
    {
      header: t`Account`,
      cell: (c) => (
        <>
          <AccountTypeLabel type={c.type} /> <DisabledBadge at={c.disabled_at} />
        </>
      ),
    },
  ]
  return (
    <section className={surface.surface} aria-labelledby="customers-heading">
      <h1 id="customers-heading" className={surface.heading}>
        <Trans>Customers</Trans>
      </h1>
      <form role="search" className={styles.searchForm} onSubmit={submit}>
        <TextField
          id="customer-search"
          label={<Trans>Username, phone or e-mail</Trans>}
          type="search"
          value={text}
          onValue={setText}
          autoCapitalize="none"
          spellCheck={false}
          enterKeyHint="search"
        />
        <button type="submit" className={button.primary}>
          <Trans>Search</Trans>
        </button>
      </form>
      {query.data?.total === 0 ? (
        <EmptyState>
          {q ? <Trans>No customer matches “{q}”.</Trans> : <Trans>No customers yet.</Trans>}
        </EmptyState>
      ) : (
        <PagedTable
          query={query}
          label={t`Customers`}
          columns={columns}
          rowKey={(c) => c.id}
          page={page}
          link={(p, props) => <AppLink to="/admin/customers" search={{ q, page: p }} {...props} />}
        />
      )}
    </section>
  )
}
