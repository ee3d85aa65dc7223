import { Trans } from '@lingui/react/macro'
import { button } from './button.css'
import * as field from './field.css'

/** A failed load: its message in the user's language and a way to try again. */
export function ErrorNote({ error, onRetry }: { error: Error; onRetry?: () => void }) {
  return (
    <div role="alert">
      <p className={field.error}>{error.message}</p>
      {onRetry && (
        <button type="button" className={button.secondary} onClick={onRetry}>
          <Trans>Try again</Trans>
        </button>
      )}
    </div>
  )
}
