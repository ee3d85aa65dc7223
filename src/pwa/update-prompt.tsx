import { useState } from 'react'
import { useRegisterSW } from 'virtual:pwa-register/react'
import { Trans } from '@lingui/react/macro'
import { button } from '../ui/button.css'
import { formHoldsInput } from './form-input'
import * as styles from './pwa.css'

/**
 * A new release waits until the customer chooses to reload; it never reloads on its own while
 * a form holds input, so an update cannot wipe a half-filled order.
 */
export function UpdatePrompt() {
  const [confirming, setConfirming] = useState(false)
  const {
    needRefresh: [needRefresh, setNeedRefresh],
    updateServiceWorker,
  } = useRegisterSW({
    onNeedReload() {
      if (formHoldsInput()) setNeedRefresh(true)
      else window.location.reload()
    },
    onRegisterError(error: unknown) {
      console.error('Service worker registration failed', error)
    },
  })

  if (!needRefresh) return null

  const reload = () => {
    if (!confirming && formHoldsInput()) setConfirming(true)
    else void updateServiceWorker(true)
  }

  return (
    <div className={styles.banner} role="alertdialog" aria-labelledby="update-text">
      <p id="update-text" className={styles.text}>
        {confirming ? (
          <Trans>You have unsaved input on this page. Reload anyway?</Trans>
        ) : (
          <Trans>A new version of the store is available.</Trans>
        )}
      </p>
      <button type="button" className={button.primary} onClick={reload}>
        <Trans>Reload</Trans>
      </button>
      <button
        type="button"
        className={button.secondary}
        onClick={() => {
          setConfirming(false)
          setNeedRefresh(false)
        }}
      >
        <Trans>Later</Trans>
      </button>
    </div>
  )
}
