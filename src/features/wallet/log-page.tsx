import { useQuery } from '@tanstack/react-query'
import { Trans, useLingui } from '@lingui/react/macro'
import { DateTime } from '../../ui/date-time'
import { Details } from '../../ui/details'
import { NoData } from '../../ui/load-problem'
import { Price } from '../../ui/price'
import * as surface from '../../ui/surface.css'
import { LogStatusBadge } from '../../ui/charge-labels'
import { walletQueries } from './queries'
import { AccountSavedNote } from '../../ui/saved-note'

/** One movement of the wallet: what it was, and the balance before and after. */
export function LogPage({ id }: { id: number }) {
  const { t } = useLingui()
  const { data: log, error, refetch, dataUpdatedAt } = useQuery(walletQueries.log(id))
  if (!log) return <NoData error={error} onRetry={() => void refetch()} />
  const { id: number } = log
  return (
    <section className={surface.surface} aria-labelledby="log-heading">
      <h1 id="log-heading" className={surface.heading}>
        <Trans>Payment #{number}</Trans>
      </h1>
      <AccountSavedNote updatedAt={dataUpdatedAt} />
      <Details
        rows={[
          [t`Status`, <LogStatusBadge key="status" status={log.status} />],
          [t`Process`, log.name],
          [t`Date`, <DateTime key="date" at={log.created_at} date={log.date} time={log.time} />],
          [
            t`Previous balance`,
            <Price key="p" amount={log.previous_balance} currency={log.currency} />,
          ],
          [t`Value`, <Price key="v" amount={log.value} currency={log.currency} />],
          [
            t`Current balance`,
            <Price key="c" amount={log.current_balance} currency={log.currency} />,
          ],
        ]}
      />
    </section>
  )
}
