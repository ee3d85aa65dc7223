import type { ReactNode } from 'react'
import { useQuery } from '@tanstack/react-query'
import { Trans, useLingui } from '@lingui/react/macro'
import type { Today } from '../../contract/console'
import { Loading, LoadProblem } from '../../ui/load-problem'
import { AppLink } from '../../ui/nav'
import { Price } from '../../ui/price'
import * as surface from '../../ui/surface.css'
import { NotifyDevice } from './notify-device'
import { consoleQueries } from './queries'
import * as styles from './console.css'

/** What waits for the operator, and the day's money so far; a count with a queue links to it. */
export function TodayPage() {
  const { t } = useLingui()
  const today = useQuery(consoleQueries.today())
  if (today.error) return <LoadProblem error={today.error} onRetry={() => void today.refetch()} />
  if (!today.data) return <Loading />
  const d = today.data
  return (
    <section className={surface.surface} aria-labelledby="today-heading">
      <h1 id="today-heading" className={surface.heading}>
        <Trans>Today</Trans>
      </h1>
      <ul className={styles.counts}>
        <Count value={d.waiting_top_ups} label={t`Top-ups waiting`} to="/admin/top-ups" />
        <Count value={d.waiting_orders} label={t`Orders waiting`} />
        <Count value={d.failed_hand_overs} label={t`Failed hand-overs`} />
        <Count value={d.unmatched_transfers} label={t`Unmatched USDT transfers`} />
        {d.low_stock !== null && <Count value={d.low_stock} label={t`Packages low on stock`} />}
      </ul>
      <h2 className={surface.subheading}>
        <Trans>Sales today</Trans>
      </h2>
      <Totals
        totals={d.sales}
        none={t`No sales yet today.`}
        counted={(count) => t`Orders: ${count}`}
      />
      <h2 className={surface.subheading}>
        <Trans>Top-ups credited today</Trans>
      </h2>
      <Totals
        totals={d.top_ups}
        none={t`No top-ups credited yet today.`}
        counted={(count) => t`Top-ups: ${count}`}
      />
      <NotifyDevice />
    </section>
  )
}

function Count({ value, label, to }: { value: number; label: string; to?: '/admin/top-ups' }) {
  const body: ReactNode = (
    <>
      <span className={styles.number}>{value}</span>
      <span>{label}</span>
    </>
  )
  return (
    <li>
      {to ? (
        <AppLink to={to} className={styles.countLink}>
          {body}
        </AppLink>
      ) : (
        <div className={styles.count}>{body}</div>
      )}
    </li>
  )
}

function Totals({
  totals,
  none,
  counted,
}: {
  totals: Today['sales']
  none: string
  counted: (count: number) => string
}) {
  if (totals.length === 0) return <p className={surface.muted}>{none}</p>
  return (
    <ul className={styles.totals}>
      {totals.map((total) => (
        <li key={total.currency}>
          <Price amount={total.amount} currency={total.currency} /> ({counted(total.count)})
        </li>
      ))}
    </ul>
  )
}
