import { Trans } from '@lingui/react/macro'
import type { UserType } from '../../contract/profile'
import { StatusBadge } from '../../ui/status-badge'

/** A customer's or a company's account, in the operator's language. */
export function AccountTypeLabel({ type }: { type: UserType }) {
  return type === 'COMPANY' ? <Trans>Company</Trans> : <Trans>Customer</Trans>
}

/** A disabled account's mark; nothing for an account in use. */
export function DisabledBadge({ at }: { at: string | null }) {
  return at === null ? null : (
    <StatusBadge tone="danger">
      <Trans>Disabled</Trans>
    </StatusBadge>
  )
}
