import { useLingui } from '@lingui/react/macro'
import type { WalletLogStatus } from '../../contract/wallet'
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
