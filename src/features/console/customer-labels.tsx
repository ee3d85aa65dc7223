import { Trans } from '@lingui/react/macro'
import { Fragment } from 'react'
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

/**
 * An e-mail address, left to right in either language. A long one wraps after its `@` and
 * before a dot rather than mid-word; only a part longer than the line is broken inside.
 */
export function EmailAddress({ address }: { address: string }) {
  return (
    <bdi dir="ltr">
      {address.split(/(?<=@)|(?=\.)/).map((part, i) => (
        <Fragment key={i}>
          {i > 0 && <wbr />}
          {part}
        </Fragment>
      ))}
    </bdi>
  )
}
