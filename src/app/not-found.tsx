import { Trans } from '@lingui/react/macro'
import { button } from '../ui/button.css'
import { MessagePage } from '../ui/message-page'

export function NotFound() {
  return <MessagePage kind="not-found" />
}

export function Forbidden() {
  return <MessagePage kind="forbidden" />
}

export function RouteError({ error, reset }: { error: unknown; reset: () => void }) {
  return (
    <MessagePage
      kind="error"
      detail={error instanceof Error ? error.message : String(error)}
      action={
        <button type="button" className={button.primary} onClick={reset}>
          <Trans>Try again</Trans>
        </button>
      }
    />
  )
}
