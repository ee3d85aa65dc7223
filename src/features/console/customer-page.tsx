import { useState, type ReactNode } from 'react'
import { useQuery } from '@tanstack/react-query'
import { Trans, useLingui } from '@lingui/react/macro'
import type { PaymentLog } from '../../contract/wallet'
import { button } from '../../ui/button.css'
import { LogStatusBadge } from '../../ui/charge-labels'
import type { Column } from '../../ui/data-list'
import { DateTime } from '../../ui/date-time'
import * as fieldStyles from '../../ui/field.css'
import { lazyPiece } from '../../ui/lazy-piece'
import { Loading, LoadProblem } from '../../ui/load-problem'
import { AppLink } from '../../ui/nav'
import { PagedTable } from '../../ui/paged-table'
import { Price } from '../../ui/price'
import * as surface from '../../ui/surface.css'
import type { CustomerAction } from './customer-dialogs'
import { AccountTypeLabel, DisabledBadge, EmailAddress } from './customer-labels'
import { customerQueries } from './customers-queries'
import * as styles from './console.css'

/** The actions' dialogs (Radix): loaded when one is first opened, not with the page. */
const CustomerDialog = lazyPiece(() => import('./customer-dialogs').then((m) => m.CustomerDialog))

/**
 * One customer: the account, its actions (each asked again in a dialog) and its wallet's
 * ledger. The message of the last action stays above the actions.
 */
export function CustomerPage({ id, page }: { id: number; page: number }) {
  const { t } = useLingui()
  const customer = useQuery(customerQueries.detail(id))
  const ledger = useQuery(customerQueries.ledger(id, page))
  const [open, setOpen] = useState<CustomerAction | null>(null)
  const [notice, setNotice] = useState<string | null>(null)

  if (customer.error)
    return <LoadProblem error={customer.error} onRetry={() => void customer.refetch()} />
  if (!customer.data) return <Loading />
  const c = customer.data

  const columns: Column<PaymentLog>[] = [
    { header: '#', cell: (log) => log.id },
    { header: t`Process`, cell: (log) => log.name, primary: true },
    { header: t`Status`, cell: (log) => <LogStatusBadge status={log.status} /> },
    { header: t`Value`, cell: (log) => <Price amount={log.value} currency={log.currency} /> },
    {
      header: t`Balance after`,
      cell: (log) => <Price amount={log.current_balance} currency={log.currency} />,
    },
    {
      header: t`Date`,
      cell: (log) => <DateTime at={log.created_at} date={log.date} time={log.time} />,
    },
  ]
  const facts: [string, ReactNode][] = [
    [t`Balance`, <Price amount={c.balance} currency={c.currency} />],
    [t`Phone`, <bdi dir="ltr">{c.phone_number}</bdi>],
    [t`E-mail`, c.email ? <EmailAddress address={c.email} /> : '—'],
    [t`Account type`, <AccountTypeLabel type={c.type} />],
    [t`Language`, c.locale === 'ar' ? 'العربية' : 'English'],
    [t`Signed-in devices`, String(c.sessions)],
    [t`Customer since`, <DateTime at={c.created_at} date="" time="" />],
  ]
  if (c.disabled_at)
    facts.push([t`Disabled since`, <DateTime at={c.disabled_at} date="" time="" />])
  const actionButton = (action: CustomerAction, label: ReactNode, primary = false) => (
    <button
      type="button"
      className={`${primary ? button.primary : button.secondary} ${styles.actionButton}`}
      onClick={() => setOpen(action)}
    >
      {label}
    </button>
  )

  return (
    <section className={surface.surface} aria-labelledby="customer-heading">
      <p className={styles.back}>
        <AppLink to="/admin/customers" search={{ q: '', page: 1 }}>
          <Trans>All customers</Trans>
        </AppLink>
      </p>
      <h1 id="customer-heading" className={surface.heading}>
        <bdi>{c.username}</bdi> <DisabledBadge at={c.disabled_at} />
      </h1>
      <dl className={styles.facts}>
        {facts.map(([term, value]) => (
          <Fact key={term} term={term}>
            {value}
          </Fact>
        ))}
      </dl>
      <p role="status" className={`${styles.notice} ${fieldStyles.success}`}>
        {notice}
      </p>
      <div className={styles.customerActions}>
        {actionButton('correct', <Trans>Correct the balance…</Trans>, true)}
        {c.disabled_at === null
          ? actionButton('disable', <Trans>Disable…</Trans>)
          : actionButton('enable', <Trans>Enable…</Trans>)}
        {actionButton('sessions', <Trans>Sign out everywhere…</Trans>)}
        {actionButton(
          'type',
          c.type === 'COMPANY' ? (
            <Trans>Make it a customer account…</Trans>
          ) : (
            <Trans>Make it a company account…</Trans>
          ),
        )}
      </div>
      {open !== null && (
        <CustomerDialog
          customer={c}
          action={open}
          onClose={() => setOpen(null)}
          onDone={setNotice}
        />
      )}
      <h2 className={surface.subheading}>
        <Trans>Wallet ledger</Trans>
      </h2>
      {ledger.data?.total === 0 ? (
        <p className={surface.muted}>
          <Trans>No wallet movements yet.</Trans>
        </p>
      ) : (
        <PagedTable
          query={ledger}
          label={t`Wallet ledger`}
          columns={columns}
          rowKey={(log) => log.id}
          page={page}
          link={(p, props) => (
            <AppLink
              to="/admin/customers/$id"
              params={{ id: String(id) }}
              search={{ page: p }}
              {...props}
            />
          )}
        />
      )}
    </section>
  )
}

function Fact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <>
      <dt className={styles.term}>{term}</dt>
      <dd className={styles.value}>{children}</dd>
    </>
  )
}
