import { Trans } from '@lingui/react/macro'
import { formatDateTime } from '../../i18n/dates'
import { useLocale } from '../../i18n/use-locale'
import { useOnline } from '../../ui/use-online'
import * as surface from '../../ui/surface.css'

/** Offline, what is shown is the copy saved on this device: say so, and from when. */
export function SavedNote({ updatedAt }: { updatedAt: number }) {
  const locale = useLocale()
  const online = useOnline()
  if (online || !updatedAt) return null
  const when = formatDateTime(new Date(updatedAt), locale)
  return (
    <p className={surface.savedNote} role="status">
      <Trans>You are offline. This is the catalogue saved on this device on {when}.</Trans>
    </p>
  )
}
