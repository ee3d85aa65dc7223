import { useLingui } from '@lingui/react/macro'
import type { OrderStatus } from '../../contract/orders'
import * as styles from './orders.css'

/** Spec section 4: FAILED is shown as WAITING; waiting blue, completed green, canceled red. */
export function shownStatus(status: OrderStatus): Exclude<OrderStatus, 'FAILED'> {
  return status === 'FAILED' ? 'WAITING' : status
}

export function StatusBadge({ status }: { status: OrderStatus }) {
  const { t } = useLingui()
  const shown = shownStatus(status)
  const label = { WAITING: t`Waiting`, COMPLETED: t`Completed`, CANCELED: t`Canceled` }[shown]
  return <span className={styles.status[shown]}>{label}</span>
}
