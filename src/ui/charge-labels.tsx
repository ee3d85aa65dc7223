import { useLingui } from '@lingui/react/macro'
import type { ChargingStatus, WalletLogStatus } from '../contract/wallet'
import { StatusBadge } from './status-badge'

/** A top-up's state: waiting blue, completed green, canceled red (the wallet and the console). */
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

/** A wallet line: Discounted (money out) red, Charged (money in) green (the wallet and the console). */
export function LogStatusBadge({ status }: { status: WalletLogStatus }) {
  const { t } = useLingui()
  return status === 'Charged' ? (
    <StatusBadge tone="success">{t`Charged`}</StatusBadge>
  ) : (
    <StatusBadge tone="danger">{t`Discounted`}</StatusBadge>
  )
}
