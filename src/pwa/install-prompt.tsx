import { useEffect, useState } from 'react'
import { Trans } from '@lingui/react/macro'
import { button } from '../ui/button.css'
import * as styles from './pwa.css'

interface BeforeInstallPromptEvent extends Event {
  prompt(): Promise<void>
  userChoice: Promise<{ outcome: 'accepted' | 'dismissed' }>
}

const IOS_HINT_KEY = 'ios_install_hint_dismissed'

/** An install button where the browser offers one (Chromium's beforeinstallprompt). */
export function InstallButton() {
  const [event, setEvent] = useState<BeforeInstallPromptEvent | null>(null)

  useEffect(() => {
    const offer = (e: Event) => {
      e.preventDefault()
      setEvent(e as BeforeInstallPromptEvent)
    }
    const installed = () => setEvent(null)
    window.addEventListener('beforeinstallprompt', offer)
    window.addEventListener('appinstalled', installed)
    return () => {
      window.removeEventListener('beforeinstallprompt', offer)
      window.removeEventListener('appinstalled', installed)
    }
  }, [])

  if (!event) return null
  return (
    <button
      type="button"
      className={button.secondary}
      onClick={() => {
        void event.prompt()
        void event.userChoice.finally(() => setEvent(null))
      }}
    >
      <Trans>Install app</Trans>
    </button>
  )
}

function isIosSafari(): boolean {
  const ua = navigator.userAgent
  const ios =
    /iPad|iPhone|iPod/.test(ua) || (ua.includes('Macintosh') && navigator.maxTouchPoints > 1)
  if (!ios || !/Safari/.test(ua) || /CriOS|FxiOS|EdgiOS/.test(ua)) return false
  // Asked last: a media query's answer may make the browser bring the page's style up to date.
  return !(
    window.matchMedia('(display-mode: standalone)').matches ||
    (navigator as Navigator & { standalone?: boolean }).standalone === true
  )
}

/** iOS Safari has no install prompt: tell the customer how to add the store to the home screen. */
export function IosInstallHint() {
  const [shown, setShown] = useState(() => {
    try {
      return isIosSafari() && !localStorage.getItem(IOS_HINT_KEY)
    } catch {
      return false
    }
  })
  if (!shown) return null
  return (
    <div className={styles.banner} role="note">
      <p className={styles.text}>
        <Trans>Install this store: tap the Share button, then choose “Add to Home Screen”.</Trans>
      </p>
      <button
        type="button"
        className={button.secondary}
        onClick={() => {
          localStorage.setItem(IOS_HINT_KEY, '1')
          setShown(false)
        }}
      >
        <Trans>Got it</Trans>
      </button>
    </div>
  )
}
