import { Trans, useLingui } from '@lingui/react/macro'
import { ApiError } from '../../api/errors'
import { useOnline } from '../../ui/use-online'
import { ErrorNote } from '../../ui/error-note'
import * as styles from './catalogue.css'

/** Offline, what is shown is the copy saved on this device: say so, and from when. */
export function SavedNote({ updatedAt }: { updatedAt: number }) {
  const { i18n } = useLingui()
  const online = useOnline()
  if (online || !updatedAt) return null
  const when = i18n.date(new Date(updatedAt), { dateStyle: 'medium', timeStyle: 'short' })
  return (
    <p className={styles.note} role="status">
      <Trans>You are offline. This is the catalogue saved on this device on {when}.</Trans>
    </p>
  )
}

/** A page that could not load: offline and never seen says it is not saved; else the error. */
export function LoadProblem({ error, onRetry }: { error: Error; onRetry: () => void }) {
  const online = useOnline()
  if (!online || (error instanceof ApiError && error.isNetwork))
    return (
      <p className={styles.empty} role="status">
        <Trans>This page is not saved on this device yet. Connect to the internet to see it.</Trans>
      </p>
    )
  return <ErrorNote error={error} onRetry={onRetry} />
}
