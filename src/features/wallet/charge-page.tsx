import { useQuery } from '@tanstack/react-query'
import { Trans, useLingui } from '@lingui/react/macro'
import { DateTime } from '../../ui/date-time'
import { Details } from '../../ui/details'
import { NoData } from '../../ui/load-problem'
import { Price } from '../../ui/price'
import * as surface from '../../ui/surface.css'
import { ChargeStatusBadge } from '../../ui/charge-labels'
import { useMethodName } from '../../ui/method-name'
import { walletQueries } from './queries'
import * as styles from './wallet.css'
import { AccountSavedNote } from '../../ui/saved-note'

/** The receipt photo, fetched with the customer's token: it is theirs alone. */
function Receipt({ path }: { path: string }) {
  const { t } = useLingui()
  const { data: url, error } = useQuery(walletQueries.receipt(path))
  if (!url) return <NoData error={error} />
  return <img className={styles.receipt} src={url} alt={t`The receipt you sent`} />
}

/** One top-up: its method, value, what was credited, its state and, if refused, why. */
export function ChargePage({ id }: { id: number }) {
  const { t } = useLingui()
  const methodName = useMethodName()
  const { data: charge, error, refetch, dataUpdatedAt } = useQuery(walletQueries.charge(id))
  if (!charge) return <NoData error={error} onRetry={() => void refetch()} />
  const { id: number } = charge
  return (
    <section className={surface.surface} aria-labelledby="charge-heading">
      <h1 id="charge-heading" className={surface.heading}>
        <Trans>Shipping payment #{number}</Trans>
      </h1>
      <AccountSavedNote updatedAt={dataUpdatedAt} />
      <Details
        rows={[
          [t`Status`, <ChargeStatusBadge key="status" status={charge.status} />],
          [t`Method`, methodName(charge.name)],
          [t`Value`, <Price key="v" amount={charge.value} currency={charge.currency} />],
          [t`Tax`, charge.tax_percentage ? `${charge.tax_percentage} %` : null],
          [
            t`Credited`,
            <Price key="s" amount={charge.shipping_value} currency={charge.currency} />,
          ],
          [t`Currency`, charge.currency],
          [
            t`Date`,
            <DateTime key="d" at={charge.created_at} date={charge.date} time={charge.time} />,
          ],
          [t`Reject reason`, charge.reject_reason],
        ]}
      />
      {charge.image && <Receipt path={`charging-processes/${charge.id}/receipt`} />}
    </section>
  )
}
