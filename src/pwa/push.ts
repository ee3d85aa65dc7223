import { queryOptions } from '@tanstack/react-query'
import { api } from '../api/client'
import type { PushConfig } from '../contract/notifications'

/*
 * Push registration with Firebase Cloud Messaging. The Firebase web app's settings come from
 * the server (GET push/config, docs/api.md), so the same build offers push once the store's
 * owner has configured Firebase on the server; without them nothing asks, and the bell still
 * shows every notification. The firebase SDK is loaded only when the customer asks for
 * notifications, or already allowed them (never on the first load); the token goes to the
 * server.
 */

let asked: Promise<PushConfig | null> | undefined

/** The store's push settings, asked of the server once per visit; null when it sends none. */
export function pushConfig(): Promise<PushConfig | null> {
  asked ??= api
    .get(
      'push/config',
      () => import('../contract/notifications').then((contract) => contract.PushConfigReplySchema),
      { anonymous: true },
    )
    .then(
      (reply) => reply.data,
      () => {
        // Offline or refused: ask again next time.
        asked = undefined
        return null
      },
    )
  return asked
}

/** The settings for a component: asked once per visit, never kept on the device. */
export const pushConfigQuery = () =>
  queryOptions({
    queryKey: ['push-config'],
    queryFn: pushConfig,
    staleTime: Infinity,
    meta: { persist: false },
  })

const isIos = () =>
  /iPad|iPhone|iPod/.test(navigator.userAgent) ||
  (navigator.userAgent.includes('Macintosh') && navigator.maxTouchPoints > 1)
const installed = () =>
  window.matchMedia('(display-mode: standalone)').matches ||
  (navigator as Navigator & { standalone?: boolean }).standalone === true

/**
 * Where this browser stands: the store sends no push; push cannot work here; it could after
 * the app is added to the home screen (iOS browsers); the customer said no; it is on; or it
 * can be asked for.
 */
export type PushState = 'off' | 'unsupported' | 'install-first' | 'denied' | 'on' | 'ask'

export function pushState(config: PushConfig | null | undefined): PushState {
  if (!config) return 'off'
  if (isIos() && !installed()) return 'install-first'
  if (!('Notification' in window) || !('serviceWorker' in navigator) || !('PushManager' in window))
    return 'unsupported'
  if (Notification.permission === 'denied') return 'denied'
  return Notification.permission === 'granted' ? 'on' : 'ask'
}

async function messaging(config: PushConfig) {
  const [{ initializeApp, getApps }, { getMessaging }] = await Promise.all([
    import('firebase/app'),
    import('firebase/messaging'),
  ])
  const { vapidKey: _, ...app } = config
  return getMessaging(getApps()[0] ?? initializeApp(app))
}

/** How long the browser's push service and Firebase get to give a token before the customer is told. */
const TOKEN_WAIT_MS = 20_000

/**
 * The device's push token: the store's own service worker receives the pushes. A push service
 * that cannot be reached may never answer: past TOKEN_WAIT_MS this fails, so the customer is
 * told rather than left before a button that stays disabled.
 */
async function tokenOf(config: PushConfig): Promise<string> {
  const [{ getToken }, registration, instance] = await Promise.all([
    import('firebase/messaging'),
    navigator.serviceWorker.ready,
    messaging(config),
  ])
  let timer: ReturnType<typeof setTimeout> | undefined
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('no push token in time')), TOKEN_WAIT_MS)
  })
  try {
    return await Promise.race([
      getToken(instance, { vapidKey: config.vapidKey, serviceWorkerRegistration: registration }),
      late,
    ])
  } finally {
    clearTimeout(timer)
  }
}

/**
 * Asks for permission (from the customer's tap) and returns the device's push token, or null
 * when the customer said no.
 */
async function enablePush(config: PushConfig): Promise<string | null> {
  const permission = await Notification.requestPermission()
  if (permission !== 'granted') return null
  return tokenOf(config)
}

/**
 * Asks for permission (from a tap) and gives the server this device's push token (POST
 * `fcm_token`): a customer's to `user/fcm-token`, an operator's to `admin/push-token` with the
 * console's session. False when the permission was refused.
 */
export async function turnOnPush(
  config: PushConfig,
  to: 'user/fcm-token' | 'admin/push-token',
): Promise<boolean> {
  const token = await enablePush(config)
  if (!token) return false
  await api.post(
    to,
    () => import('../contract/common').then((contract) => contract.MessageReplySchema),
    { body: { fcm_token: token }, console: to === 'admin/push-token' },
  )
  return true
}

/**
 * The device's push token when the store sends pushes and the customer already allowed
 * notifications (a sign-in sends it with the code), or null; never asks for permission.
 */
export async function pushToken(): Promise<string | null> {
  const config = await pushConfig()
  if (!config || pushState(config) !== 'on') return null
  try {
    return await tokenOf(config)
  } catch {
    return null
  }
}

/** Forgets this device's push token in the browser (at logout); quiet when there is none. */
export async function disablePush(): Promise<void> {
  const config = await pushConfig()
  if (!config || pushState(config) !== 'on') return
  try {
    const [{ deleteToken }, instance] = await Promise.all([
      import('firebase/messaging'),
      messaging(config),
    ])
    await deleteToken(instance)
  } catch {
    // Nothing to forget, or Firebase unreachable: the server forgets it at logout anyway.
  }
}
