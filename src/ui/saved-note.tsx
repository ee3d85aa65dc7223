import { Trans, useLingui } from '@lingui/react/macro'
import { useOnline } from './use-online'
import * as styles from './surface.css'

/**
 * Offline, the customer's own data shown is the copy saved on this device the last time it was
 * seen online: say so, with when (the device's local time). Online, nothing.
 */
export function AccountSavedNote({ updatedAt }: { updatedAt: number }) {
  const { i18n } = useLingui()
  const online = useOnline()
  if (online || !updatedAt) return null
  const when = i18n.date(new Date(updatedAt), { dateStyle: 'medium', timeStyle: 'short' })
  return (
    <p className={styles.savedNote} role="status">
      <Trans>You are offline. This was saved on this device at {when}.</Trans>
    </p>
  )
}
