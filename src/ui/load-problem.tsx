import { Trans } from '@lingui/react/macro'
import { ApiError } from '../api/errors'
import { ErrorNote } from './error-note'
import * as styles from './surface.css'
import { useOnline } from './use-online'

/**
 * Data that could not load. Offline (or the network failed), it says the page is not saved on
 * this device yet; otherwise the error, with a way to try again.
 */
export function LoadProblem({ error, onRetry }: { error: Error; onRetry?: () => void }) {
  const online = useOnline()
  if (!online || (error instanceof ApiError && error.isNetwork))
    return (
      <p className={styles.muted} role="status">
        <Trans>This page is not saved on this device yet. Connect to the internet to see it.</Trans>
      </p>
    )
  return <ErrorNote error={error} onRetry={onRetry} />
}

/**
 * A page without its data yet: the load's problem, or that it loads. A page that has data shows
 * it even when asking again failed (offline, its retries spent): what the device saved stays.
 */
export function NoData({ error, onRetry }: { error: Error | null; onRetry?: () => void }) {
  return error ? <LoadProblem error={error} onRetry={onRetry} /> : <Loading />
}

/** While data loads: announced as busy, shown as a short line. */
export function Loading() {
  return (
    <p aria-busy="true" className={styles.muted}>
      <Trans>Loading…</Trans>
    </p>
  )
}

/** Grey lines where a text will be, while it loads. */
export function TextLines({ count = 3 }: { count?: number }) {
  return (
    <div aria-hidden="true">
      {Array.from({ length: count }, (_, index) => (
        <div key={index} className={styles.textLine} />
      ))}
    </div>
  )
}
