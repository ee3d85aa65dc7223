import { useEffect } from 'react'
import { useMutation, useQuery } from '@tanstack/react-query'
import { Trans, useLingui } from '@lingui/react/macro'
import { pushConfigQuery, pushState, turnOnPush } from '../../pwa/push'
import { button } from '../../ui/button.css'
import * as fieldStyles from '../../ui/field.css'
import { FormError } from '../../ui/form-error'
import * as surface from '../../ui/surface.css'
import * as styles from './console.css'

/**
 * This device's pushes of new receipts and unmatched transfers (docs/api.md, Console: Alerts):
 * the browser's permission asked at the operator's tap, the token given to this console session
 * as the storefront gives a customer's. Where notifications are already allowed, the token goes
 * by itself, as a sign-out forgot it.
 */
export function NotifyDevice() {
  const { t } = useLingui()
  const { data: config, isPending } = useQuery(pushConfigQuery())
  const turnOn = useMutation({
    mutationFn: async () => !!config && turnOnPush(config, 'admin/push-token'),
  })
  // Read again at each render: the permission changes with the operator's answer.
  const state = pushState(config)
  const { mutate, isIdle } = turnOn
  useEffect(() => {
    if (state === 'on' && isIdle) mutate()
  }, [state, isIdle, mutate])
  if (isPending) return null
  return (
    <section className={styles.notify} aria-label={t`Push notifications`}>
      {turnOn.data ? (
        <p role="status" className={fieldStyles.success}>
          <Trans>Notifications are on for this device.</Trans>
        </p>
      ) : state === 'denied' ? (
        <p role="status" className={surface.muted}>
          <Trans>
            Notifications are refused on this device: allow them in the browser's settings.
          </Trans>
        </p>
      ) : state === 'ask' || state === 'on' ? (
        <button
          type="button"
          className={button.secondary}
          disabled={turnOn.isPending}
          onClick={() => turnOn.mutate()}
        >
          <Trans>Notify this device</Trans>
        </button>
      ) : (
        <p className={surface.muted}>
          <Trans>This device cannot get notifications.</Trans>
        </p>
      )}
      {/* Firebase's own errors are in English and name its internals. */}
      <FormError
        message={
          turnOn.error
            ? t`Notifications could not be turned on on this device. Please try again later.`
            : undefined
        }
      />
    </section>
  )
}
