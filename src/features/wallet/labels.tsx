import { useLingui } from '@lingui/react/macro'
import type { ChargingMethod, ChargingStatus, WalletLogStatus } from '../../contract/wallet'
import { StatusBadge } from '../../ui/status-badge'

/** Discounted (money out) red, Charged (money in) green. */
export function LogStatusBadge({ status }: { status: WalletLogStatus }) {
  const { t } = useLingui()
  return status === 'Charged' ? (
    <StatusBadge tone="success">{t`Charged`}</StatusBadge>
  ) : (
    <StatusBadge tone="danger">{t`Discounted`}</StatusBadge>
  )
}

/** Waiting blue, completed green, canceled red. */
export function ChargeStatusBadge({ status }: { status: ChargingStatus }) {
  const { t } = useLingui()
  switch (status) {
    case 'WAITING':
      return <StatusBadge tone="info">{t`Waiting`}</StatusBadge>
    case 'COMPLETED':
      return <StatusBadge tone="success">{t`Completed`}</StatusBadge>
    case 'CANCELED':
      return <StatusBadge tone="danger">{t`Canceled`}</StatusBadge>
  }
}

export function useMethodName() {
  const { t } = useLingui()
  return (method: ChargingMethod) =>
    ({
      WHISH_MONEY: t`Whish Money`,
      OMT_PAY: t`OMT Pay`,
      PROMO_CODE: t`Code`,
      USDT: t`USDT`,
    })[method]
}
