import { useEffect, useState } from 'react'
import { Trans } from '@lingui/react/macro'
import * as styles from './shell.css'

const POPUP_MS = 2000

/** 'You are online!' / 'You are offline!' for two seconds whenever the connection changes. */
export function ConnectionPopup() {
  const [shown, setShown] = useState<'online' | 'offline' | null>(() =>
    // Only a browser that knows it is offline says so (the server's first screen has no
    // connection state).
    navigator.onLine === false ? 'offline' : null,
  )

  useEffect(() => {
    const show = (state: 'online' | 'offline') => () => setShown(state)
    const onOnline = show('online')
    const onOffline = show('offline')
    window.addEventListener('online', onOnline)
    window.addEventListener('offline', onOffline)
    return () => {
      window.removeEventListener('online', onOnline)
      window.removeEventListener('offline', onOffline)
    }
  }, [])

  useEffect(() => {
    if (!shown) return
    const timer = setTimeout(() => setShown(null), POPUP_MS)
    return () => clearTimeout(timer)
  }, [shown])

  return (
    <div role="status" aria-live="polite">
      {shown === 'online' && (
        <p className={`${styles.popup} ${styles.online}`}>
          <Trans>You are online!</Trans>
        </p>
      )}
      {shown === 'offline' && (
        <p className={`${styles.popup} ${styles.offline}`}>
          <Trans>You are offline!</Trans>
        </p>
      )}
    </div>
  )
}
