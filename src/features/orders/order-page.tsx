import { useEffect, useState, type ReactNode } from 'react'
import { useQuery } from '@tanstack/react-query'
import { Trans, useLingui } from '@lingui/react/macro'
import { formatMoney, toMicros } from '../../domain/money'
import { useLocale } from '../../i18n/use-locale'
import { button } from '../../ui/button.css'
import { ErrorNote } from '../../ui/error-note'
import { orderQueries } from './queries'
import { StatusBadge } from './status'
import * as styles from './orders.css'

export const CODE_COPIED_MS = 2000

function CopyButton({ text }: { text: string }) {
  const { t } = useLingui()
  const [copied, setCopied] = useState(false)
  useEffect(() => {
    if (!copied) return
    const timer = setTimeout(() => setCopied(false), CODE_COPIED_MS)
    return () => clearTimeout(timer)
  }, [copied])
  return (
    <button
      type="button"
      className={button.secondary}
      aria-label={copied ? t`Copied` : t`Copy code ${text}`}
      onClick={() => {
        void navigator.clipboard?.writeText(text).then(
          () => setCopied(true),
          () => setCopied(false),
        )
      }}
    >
      {copied ? <Trans>Copied</Trans> : <Trans>Copy</Trans>}
    </button>
  )
}

export function OrderPage({ id }: { id: number }) {
  const { t } = useLingui()
  const locale = useLocale()
  const { data: order, error, refetch } = useQuery(orderQueries.detail(id))
  if (error) return <ErrorNote error={error} onRetry={() => void refetch()} />
  if (!order)
    return (
      <p aria-busy="true">
        <Trans>Loading…</Trans>
      </p>
    )

  const rows: Array<[string, ReactNode]> = [
    [t`Status`, <StatusBadge key="status" status={order.status} />],
    [t`Product`, order.product_name],
    [t`Package`, order.package_name],
    [t`Quantity`, order.quantity],
    [
      t`Total`,
      <bdi key="total">{formatMoney(toMicros(order.total_price), order.currency, locale)}</bdi>,
    ],
    [t`Player number`, order.player_number],
    [t`Player name`, order.player_name],
    [t`Service`, order.service_type],
    [t`Link`, order.social_link],
    [t`Wallet address`, order.wallet_address],
    [t`Email or phone number`, order.email_or_phone_number],
    [t`Contact number`, order.contact_number],
    [t`Expiry date`, order.expiry_date],
    [t`Customer`, `${order.user.username} (${order.user.phone_number})`],
    [t`Date`, <bdi key="date" dir="ltr">{`${order.date} ${order.time}`}</bdi>],
    [t`Refuse reason`, order.refuse_reason],
    [t`Note`, order.accept_note],
  ]

  return (
    <section className={styles.page} aria-labelledby="order-heading">
      <h1 id="order-heading" className={styles.heading}>
        <Trans>Order #{order.id}</Trans>
      </h1>
      {order.product_image && <img src={order.product_image} alt="" width={96} height={96} />}
      <dl className={styles.details}>
        {rows
          .filter(([, value]) => value !== null && value !== undefined && value !== '')
          .map(([label, value]) => (
            <div key={label} style={{ display: 'contents' }}>
              <dt className={styles.term}>{label}</dt>
              <dd className={styles.value}>{value}</dd>
            </div>
          ))}
      </dl>
      {order.status === 'COMPLETED' && order.item_codes.length > 0 && (
        <section aria-labelledby="codes-heading">
          <h2 id="codes-heading">
            <Trans>Codes</Trans>
          </h2>
          <ul className={styles.codes}>
            {order.item_codes.map(({ code }, index) => (
              <li key={index} className={styles.code}>
                <bdi dir="ltr">{code}</bdi>
                <CopyButton text={code} />
              </li>
            ))}
          </ul>
        </section>
      )}
    </section>
  )
}
