import type { ReactNode } from 'react'
import { Trans } from '@lingui/react/macro'
import { button } from './button.css'

/** A form's main button: disabled with "Please wait…" while what it sent is on its way. */
export function SubmitButton({ pending, children }: { pending: boolean; children: ReactNode }) {
  return (
    <button type="submit" className={button.primary} disabled={pending}>
      {pending ? <Trans>Please wait…</Trans> : children}
    </button>
  )
}
