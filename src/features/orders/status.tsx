import { useLingui } from '@lingui/react/macro'
import type { OrderStatus } from '../../contract/orders'
import { StatusBadge, type Tone } from '../../ui/status-badge'

/** FAILED is shown as WAITING: waiting blue, completed green, canceled red. */
export function shownStatus(status: OrderStatus): Exclude<OrderStatus, 'FAILED'> {
  return status === 'FAILED' ? 'WAITING' : status
}

const TONES: Record<Exclude<OrderStatus, 'FAILED'>, Tone> = {
  WAITING: 'info',
  COMPLETED: 'success',
  CANCELED: 'danger',
}

export function OrderStatusBadge({ status }: { status: OrderStatus }) {
  const { t } = useLingui()
  const shown = shownStatus(status)
  const label = { WAITING: t`Waiting`, COMPLETED: t`Completed`, CANCELED: t`Canceled` }[shown]
  return <StatusBadge tone={TONES[shown]}>{label}</StatusBadge>
}
