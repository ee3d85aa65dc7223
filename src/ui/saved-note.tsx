import { Trans } from '@lingui/react/macro'
import { formatDateTime } from '../i18n/dates'
import { useLocale } from '../i18n/use-locale'
import { useOnline } from './use-online'
import * as styles from './surface.css'

/**
 * Offline, the customer's own data shown is the copy saved on this device the last time it was
 * seen online: say so, with when (the device's local time). Online, nothing.
 */
export function AccountSavedNote({ updatedAt }: { updatedAt: number }) {
  const locale = useLocale()
  const online = useOnline()
  if (online || !updatedAt) return null
  const when = formatDateTime(new Date(updatedAt), locale)
  return (
    <p className={styles.savedNote} role="status">
      <Trans>You are offline. This was saved on this device at {when}.</Trans>
    </p>
  )
}
