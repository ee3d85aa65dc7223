import { Trans, useLingui } from '@lingui/react/macro'
import { useOnline } from '../../ui/use-online'
import * as surface from '../../ui/surface.css'

/** Offline, what is shown is the copy saved on this device: say so, and from when. */
export function SavedNote({ updatedAt }: { updatedAt: number }) {
  const { i18n } = useLingui()
  const online = useOnline()
  if (online || !updatedAt) return null
  const when = i18n.date(new Date(updatedAt), { dateStyle: 'medium', timeStyle: 'short' })
  return (
    <p className={surface.savedNote} role="status">
      <Trans>You are offline. This is the catalogue saved on this device on {when}.</Trans>
    </p>
  )
}
