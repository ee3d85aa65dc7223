import { Link } from '@tanstack/react-router'
import { Trans } from '@lingui/react/macro'
import { button } from '../ui/button.css'
import * as styles from './shell.css'

export function NotFound() {
  return (
    <section className={styles.page}>
      <h1>
        <Trans>Page not found</Trans>
      </h1>
      <p>
        <Trans>The page you are looking for does not exist or has moved.</Trans>
      </p>
      <Link to="/" className={button.primary}>
        <Trans>Back to the home page</Trans>
      </Link>
    </section>
  )
}

export function Forbidden() {
  return (
    <section className={styles.page}>
      <h1>
        <Trans>Access denied</Trans>
      </h1>
      <p>
        <Trans>You do not have permission to open this page.</Trans>
      </p>
      <Link to="/" className={button.primary}>
        <Trans>Back to the home page</Trans>
      </Link>
    </section>
  )
}

export function RouteError({ error, reset }: { error: unknown; reset: () => void }) {
  const message = error instanceof Error ? error.message : String(error)
  return (
    <section className={styles.page} role="alert">
      <h1>
        <Trans>Something went wrong</Trans>
      </h1>
      <p>{message}</p>
      <button type="button" className={button.primary} onClick={reset}>
        <Trans>Try again</Trans>
      </button>
    </section>
  )
}
