import { useEffect, useState } from 'react'
import { Trans, useLingui } from '@lingui/react/macro'
import { button } from './button.css'

/**
 * Copies a text and says so for `feedbackMs` (the store uses 1 s, 1.5 s for the API token, 2 s
 * for order codes). `label` names what is copied, for screen readers.
 */
export function CopyButton({
  text,
  label,
  feedbackMs = 1000,
}: {
  text: string
  label: string
  feedbackMs?: number
}) {
  const { t } = useLingui()
  const [copied, setCopied] = useState(false)
  useEffect(() => {
    if (!copied) return
    const timer = setTimeout(() => setCopied(false), feedbackMs)
    return () => clearTimeout(timer)
  }, [copied, feedbackMs])
  return (
    <button
      type="button"
      className={button.secondary}
      aria-label={copied ? t`Copied` : label}
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
