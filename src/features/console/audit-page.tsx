import { useState, type FormEvent } from 'react'
import { useQuery } from '@tanstack/react-query'
import { Trans, useLingui } from '@lingui/react/macro'
import type { AuditLine } from '../../contract/console-customers'
import { button } from '../../ui/button.css'
import type { Column } from '../../ui/data-list'
import { DateTime } from '../../ui/date-time'
import { EmptyState } from '../../ui/empty-state'
import { Field, TextField } from '../../ui/field'
import * as fieldStyles from '../../ui/field.css'
import { AppLink, useAppNavigate } from '../../ui/nav'
import { PagedTable } from '../../ui/paged-table'
import * as surface from '../../ui/surface.css'
import { customerQueries, type AuditSearch } from './customers-queries'
import * as styles from './console.css'

/** A value of the details as one short text. */
const shown = (value: unknown) =>
  typeof value === 'string' ? value : value === null ? '—' : JSON.stringify(value)

/** What changed: each `before` → `after` pair, then the rest of the details. */
function Changes({ details }: { details: AuditLine['details'] }) {
  const { before, after, ...rest } = details as {
    before?: Record<string, unknown>
    after?: Record<string, unknown>
  } & Record<string, unknown>
  const keys = [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])]
  const others = Object.entries(rest)
  if (keys.length === 0 && others.length === 0) return <>—</>
  return (
    <ul className={styles.changes}>
      {keys.map((key) => (
        <li key={key}>
          <bdi>{key}</bdi>:{' '}
          <bdi dir="ltr">
            {shown(before?.[key])} → {shown(after?.[key])}
          </bdi>
        </li>
      ))}
      {others.map(([key, value]) => (
        <li key={key}>
          <bdi>{key}</bdi>: <bdi>{shown(value)}</bdi>
        </li>
      ))}
    </ul>
  )
}

/** The audit log: who did what, when, from where, before and after; filtered. */
export function AuditPage({ search }: { search: AuditSearch }) {
  const { t } = useLingui()
  const navigate = useAppNavigate()
  const query = useQuery(customerQueries.audit(search))
  const [subject, setSubject] = useState(search.subject)
  const [start, setStart] = useState(search.start)
  const [end, setEnd] = useState(search.end)
  const change = (next: Partial<AuditSearch>) =>
    void navigate({ to: '/admin/audit', search: { ...search, page: 1, ...next } })
  const submit = (event: FormEvent) => {
    event.preventDefault()
    change({ subject: subject.trim(), start, end })
  }
  const actors = query.data?.actors ?? []
  const actions = query.data?.actions ?? []
  const columns: Column<AuditLine>[] = [
    {
      header: t`When`,
      cell: (a) => <DateTime at={a.created_at} date={a.date} time={a.time} />,
    },
    { header: t`Action`, cell: (a) => <bdi dir="ltr">{a.action}</bdi>, primary: true },
    { header: t`Who`, cell: (a) => <bdi dir="ltr">{a.actor}</bdi> },
    {
      header: t`Customer`,
      cell: (a) =>
        a.user_id !== null && a.username !== null ? (
          <AppLink to="/admin/customers/$id" params={{ id: String(a.user_id) }}>
            <bdi>{a.username}</bdi>
          </AppLink>
        ) : (
          '—'
        ),
    },
    {
      header: t`From`,
      cell: (a) =>
        a.address ? (
          <bdi dir="ltr">{a.address}</bdi>
        ) : a.actor.startsWith('console:') ? (
          '—'
        ) : (
          t`Server terminal`
        ),
    },
    { header: t`Changes`, cell: (a) => <Changes details={a.details} /> },
  ]
  const select = (
    id: string,
    label: string,
    value: string,
    options: string[],
    key: 'operator' | 'action',
  ) => (
    <Field id={id} label={label}>
      <select
        id={id}
        className={fieldStyles.input}
        value={value}
        onChange={(event) => change({ [key]: event.target.value })}
      >
        <option value="">{t`All`}</option>
        {[...new Set([value, ...options].filter(Boolean))].map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
      </select>
    </Field>
  )
  return (
    <section className={surface.surface} aria-labelledby="audit-heading">
      <h1 id="audit-heading" className={surface.heading}>
        <Trans>Audit log</Trans>
      </h1>
      <form className={styles.auditFilters} onSubmit={submit} aria-label={t`Filters`}>
        {select('audit-operator', t`Who`, search.operator, actors, 'operator')}
        {select('audit-action', t`Action`, search.action, actions, 'action')}
        <TextField
          id="audit-subject"
          label={<Trans>Customer's username</Trans>}
          value={subject}
          onValue={setSubject}
          autoCapitalize="none"
          spellCheck={false}
        />
        <TextField
          id="audit-start"
          label={<Trans>From day</Trans>}
          type="date"
          value={start}
          onValue={setStart}
        />
        <TextField
          id="audit-end"
          label={<Trans>To day</Trans>}
          type="date"
          value={end}
          onValue={setEnd}
        />
        <button type="submit" className={`${button.primary} ${styles.filterButton}`}>
          <Trans>Filter</Trans>
        </button>
      </form>
      {query.data?.total === 0 ? (
        <EmptyState>
          <Trans>Nothing in the audit log matches these filters.</Trans>
        </EmptyState>
      ) : (
        <PagedTable
          query={query}
          label={t`Audit log`}
          columns={columns}
          rowKey={(a) => a.id}
          page={search.page}
          link={(page, props) => (
            <AppLink to="/admin/audit" search={{ ...search, page }} {...props} />
          )}
        />
      )}
    </section>
  )
}
