import type { Messaging } from 'firebase-admin/messaging'
import type { Logger } from '../log'
import { errorFields } from '../log'
import type { PushSender } from './push'

/** Errors FCM gives for a token that will never work again. */
const GONE = new Set([
  'messaging/registration-token-not-registered',
  'messaging/invalid-registration-token',
])

/**
 * Firebase Cloud Messaging through firebase-admin, with the service account of
 * FIREBASE_SERVICE_ACCOUNT. firebase-admin is loaded on the first push, not at start.
 */
export function createFirebasePush(serviceAccount: object, logger: Logger): PushSender {
  let messaging: Promise<Messaging> | undefined
  const load = () =>
    (messaging ??= (async () => {
      const { cert, initializeApp, getApps } = await import('firebase-admin/app')
      const { getMessaging } = await import('firebase-admin/messaging')
      const app =
        getApps().find((a) => a.name === 'push') ??
        initializeApp({ credential: cert(serviceAccount) }, 'push')
      return getMessaging(app)
    })())
  return {
    kind: 'firebase',
    async send(token, message) {
      try {
        await (
          await load()
        ).send({
          token,
          notification: message.notification,
          data: message.data,
          // The store's service worker shows it and opens the subject's page.
          webpush: { notification: { icon: '/icons/icon-192.png', tag: message.data.tag } },
        })
        return 'sent'
      } catch (err) {
        const code = (err as { code?: string }).code ?? ''
        if (GONE.has(code)) return 'unregistered'
        logger.warn('push failed', { code, ...errorFields(err) })
        return 'failed'
      }
    },
  }
}
