import { useState } from 'react'
import { Trans } from '@lingui/react/macro'
import { button } from '../ui/button.css'
import { formHoldsInput } from './form-input'
import { applyUpdate } from './service-worker'
import * as styles from './pwa.css'

/**
 * Shown while a new release waits (src/pwa/service-worker.ts): it asks again before a reload
 * would lose what a form holds.
 */
export function UpdatePrompt({ onLater }: { onLater: () => void }) {
  const [confirming, setConfirming] = useState(false)

  const reload = () => {
    if (!confirming && formHoldsInput()) setConfirming(true)
    else void applyUpdate()
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
          onLater()
        }}
      >
        <Trans>Later</Trans>
      </button>
    </div>
  )
}
