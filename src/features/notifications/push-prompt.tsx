import { useState } from 'react'
import { useMutation, useQuery } from '@tanstack/react-query'
import { Trans, useLingui } from '@lingui/react/macro'
import { pushConfigQuery, pushState, turnOnPush } from '../../pwa/push'
import { button } from '../../ui/button.css'
import * as fieldStyles from '../../ui/field.css'
import { FormError } from '../../ui/form-error'
import * as styles from './notifications.css'

/**
 * Asks whether the customer wants push notifications, and only asks the browser when they tap
 * the button. Nothing shows where the store sends no push (its server has no Firebase
 * settings) or where push cannot work; an iPhone browser gets the way to add the store to the
 * home screen first; a refusal is respected.
 */
export function PushPrompt() {
  const { t } = useLingui()
  const { data: config } = useQuery(pushConfigQuery())
  const turnOn = useMutation({
    mutationFn: async () => !!config && turnOnPush(config, 'user/fcm-token'),
  })
  // Read again at each render: the permission changes with the customer's answer.
  const state = pushState(config)
  // Whether it was on when the settings came: a permission given meanwhile elsewhere (the
  // browser's site settings) does not take the offer away under the customer's finger.
  const [onAtFirst, setOnAtFirst] = useState<boolean>()
  if (config !== undefined && onAtFirst === undefined) setOnAtFirst(state === 'on')
  if (state === 'off' || state === 'unsupported' || state === 'denied') return null
  // Already on, unless the customer has just turned it on (or tried) here.
  if (state === 'on' && turnOn.isIdle && onAtFirst !== false) return null
  return (
    <section className={styles.prompt} aria-label={t`Push notifications`}>
      {state === 'install-first' ? (
        <p>
          <Trans>
            To get notifications on this iPhone or iPad, add the store to your home screen: tap
            Share, then Add to Home Screen, and open it from there.
          </Trans>
        </p>
      ) : turnOn.data ? (
        <p role="status" className={fieldStyles.success}>
          <Trans>Notifications are on for this device.</Trans>
        </p>
      ) : (
        <>
          <p>
            <Trans>Get a notification on this device when your orders and top-ups change.</Trans>
          </p>
          <div>
            <button
              type="button"
              className={button.primary}
              disabled={turnOn.isPending}
              onClick={() => turnOn.mutate()}
            >
              <Trans>Turn on notifications</Trans>
            </button>
          </div>
          {/* Firebase's own errors are in English and name its internals. */}
          <FormError
            message={
              turnOn.error
                ? t`Notifications could not be turned on on this device. Please try again later.`
                : undefined
            }
          />
        </>
      )}
    </section>
  )
}
