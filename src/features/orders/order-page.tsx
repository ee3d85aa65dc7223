import type { ReactNode } from 'react'
import { useQuery } from '@tanstack/react-query'
import { Trans, useLingui } from '@lingui/react/macro'
import { CopyButton } from '../../ui/copy-button'
import { DateTime } from '../../ui/date-time'
import { Details } from '../../ui/details'
import { NoData } from '../../ui/load-problem'
import { Price } from '../../ui/price'
import * as surface from '../../ui/surface.css'
import { orderQueries } from './queries'
import { OrderStatusBadge } from './status'
import * as styles from './orders.css'
import { AccountSavedNote } from '../../ui/saved-note'

export const CODE_COPIED_MS = 2000

export function OrderPage({ id }: { id: number }) {
  const { t } = useLingui()
  const { data: order, error, refetch, dataUpdatedAt } = useQuery(orderQueries.detail(id))
  if (!order) return <NoData error={error} onRetry={() => void refetch()} />

  const rows: Array<[string, ReactNode]> = [
    [t`Status`, <OrderStatusBadge key="status" status={order.status} />],
    [t`Product`, order.product_name],
    [t`Package`, order.package_name],
    [t`Quantity`, order.quantity],
    [t`Total`, <Price key="total" amount={order.total_price} currency={order.currency} />],
    [t`Player number`, order.player_number],
    [t`Player name`, order.player_name],
    [t`Service`, order.service_type],
    [t`Link`, order.social_link],
    [t`Wallet address`, order.wallet_address],
    [t`Email or phone number`, order.email_or_phone_number],
    ...order.requirements.map(({ label, value }): [string, ReactNode] => [label, value]),
    [t`Contact number`, order.contact_number],
    [t`Expiry date`, order.expiry_date],
    [t`Customer`, `${order.user.username} (${order.user.phone_number})`],
    [t`Date`, <DateTime key="date" at={order.created_at} date={order.date} time={order.time} />],
    [t`Refuse reason`, order.refuse_reason],
    [t`Note`, order.accept_note],
  ]

  return (
    <section className={surface.surface} aria-labelledby="order-heading">
      <h1 id="order-heading" className={surface.heading}>
        <Trans>Order #{order.id}</Trans>
      </h1>
      <AccountSavedNote updatedAt={dataUpdatedAt} />
      {order.product_image && <img src={order.product_image} alt="" width={96} height={96} />}
      <Details rows={rows} />
      {order.status === 'COMPLETED' && order.item_codes.length > 0 && (
        <section aria-labelledby="codes-heading" className={surface.surface}>
          <h2 id="codes-heading" className={surface.subheading}>
            <Trans>Codes</Trans>
          </h2>
          <ul className={styles.codes}>
            {order.item_codes.map(({ code }, index) => (
              <li key={index} className={styles.code}>
                <bdi dir="ltr">{code}</bdi>
                <CopyButton text={code} label={t`Copy code ${code}`} feedbackMs={CODE_COPIED_MS} />
              </li>
            ))}
          </ul>
        </section>
      )}
    </section>
  )
}
