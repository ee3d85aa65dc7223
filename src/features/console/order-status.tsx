import { useLingui } from '@lingui/react/macro'
import type { OrderStatus } from '../../contract/orders'
import { StatusBadge, type Tone } from '../../ui/status-badge'

const TONES: Record<OrderStatus, Tone> = {
  WAITING: 'info',
  FAILED: 'neutral',
  COMPLETED: 'success',
  CANCELED: 'danger',
}

/** An order's status as operators need it: a failed hand-over is not just waiting. */
export function ConsoleOrderStatus({ status }: { status: OrderStatus }) {
  const label = useStatusLabel()
  return <StatusBadge tone={TONES[status]}>{label(status)}</StatusBadge>
}

export function useStatusLabel() {
  const { t } = useLingui()
  const labels: Record<OrderStatus, string> = {
    WAITING: t`Waiting`,
    FAILED: t`Hand-over failed`,
    COMPLETED: t`Completed`,
    CANCELED: t`Canceled`,
  }
  return (status: OrderStatus) => labels[status]
}
