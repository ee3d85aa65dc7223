import { useState } from 'react'
import { Trans } from '@lingui/react/macro'
import { button } from '../ui/button.css'
import * as styles from './pwa.css'
import type { InstallOffer } from './install-offer'

const IOS_HINT_KEY = 'ios_install_hint_dismissed'

/** An install button, for the offer the browser made (Chromium's beforeinstallprompt). */
export function InstallButton({ offer, done }: { offer: InstallOffer; done: () => void }) {
  return (
    <button
      type="button"
      className={button.secondary}
      onClick={() => {
        void offer.prompt()
        void offer.userChoice.finally(done)
      }}
    >
      <Trans>Install app</Trans>
    </button>
  )
}

/** Not already opened from the home screen. */
function inBrowser(): boolean {
  // A media query's answer may make the browser bring the page's style up to date: asked here,
  // once the hint's code has loaded, not as the page starts.
  return !(
    window.matchMedia('(display-mode: standalone)').matches ||
    (navigator as Navigator & { standalone?: boolean }).standalone === true
  )
}

/**
 * iOS Safari has no install prompt: tell the customer how to add the store to the home screen
 * (shown only where `maybeIosSafari` holds).
 */
export function IosInstallHint() {
  const [shown, setShown] = useState(() => {
    try {
      return inBrowser() && !localStorage.getItem(IOS_HINT_KEY)
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
