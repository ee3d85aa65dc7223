/*
 * Push registration with Firebase Cloud Messaging. The firebase SDK is loaded only when the
 * customer asks for notifications (never on the first load), and the token goes to the server.
 * Firebase settings come from the build (VITE_FIREBASE_*); without them the app hides the
 * prompt and pushes are not asked for.
 */

const env = import.meta.env
const firebaseConfig = {
  apiKey: env.VITE_FIREBASE_API_KEY as string | undefined,
  projectId: env.VITE_FIREBASE_PROJECT_ID as string | undefined,
  messagingSenderId: env.VITE_FIREBASE_MESSAGING_SENDER_ID as string | undefined,
  appId: env.VITE_FIREBASE_APP_ID as string | undefined,
}
const vapidKey = env.VITE_FIREBASE_VAPID_KEY as string | undefined

export const pushConfigured = () =>
  Boolean(
    firebaseConfig.apiKey &&
    firebaseConfig.projectId &&
    firebaseConfig.messagingSenderId &&
    firebaseConfig.appId &&
    vapidKey,
  )

const isIos = () =>
  /iPad|iPhone|iPod/.test(navigator.userAgent) ||
  (navigator.userAgent.includes('Macintosh') && navigator.maxTouchPoints > 1)
const installed = () =>
  window.matchMedia('(display-mode: standalone)').matches ||
  (navigator as Navigator & { standalone?: boolean }).standalone === true

/**
 * Where this browser stands: push cannot work here; it could after the app is added to the
 * home screen (iOS browsers); the customer said no; it is on; or it can be asked for.
 */
export type PushState = 'off' | 'unsupported' | 'install-first' | 'denied' | 'on' | 'ask'

export function pushState(): PushState {
  if (!pushConfigured()) return 'off'
  if (isIos() && !installed()) return 'install-first'
  if (!('Notification' in window) || !('serviceWorker' in navigator) || !('PushManager' in window))
    return 'unsupported'
  if (Notification.permission === 'denied') return 'denied'
  return Notification.permission === 'granted' ? 'on' : 'ask'
}

async function messaging() {
  const [{ initializeApp, getApps }, { getMessaging }] = await Promise.all([
    import('firebase/app'),
    import('firebase/messaging'),
  ])
  const app = getApps()[0] ?? initializeApp(firebaseConfig)
  return getMessaging(app)
}

/**
 * Asks for permission (from the customer's tap) and returns the device's push token, or null
 * when the customer said no. The store's own service worker receives the pushes.
 */
export async function enablePush(): Promise<string | null> {
  const permission = await Notification.requestPermission()
  if (permission !== 'granted') return null
  const [{ getToken }, registration, instance] = await Promise.all([
    import('firebase/messaging'),
    navigator.serviceWorker.ready,
    messaging(),
  ])
  return getToken(instance, { vapidKey, serviceWorkerRegistration: registration })
}

/**
 * The device's push token when the customer already allowed notifications (a sign-in sends it
 * with the code), or null; never asks for permission.
 */
export async function pushToken(): Promise<string | null> {
  if (pushState() !== 'on') return null
  try {
    const [{ getToken }, registration, instance] = await Promise.all([
      import('firebase/messaging'),
      navigator.serviceWorker.ready,
      messaging(),
    ])
    return await getToken(instance, { vapidKey, serviceWorkerRegistration: registration })
  } catch {
    return null
  }
}

/** Forgets this device's push token in the browser (at logout); quiet when there is none. */
export async function disablePush(): Promise<void> {
  if (pushState() !== 'on') return
  try {
    const [{ deleteToken }, instance] = await Promise.all([
      import('firebase/messaging'),
      messaging(),
    ])
    await deleteToken(instance)
  } catch {
    // Nothing to forget, or Firebase unreachable: the server forgets it at logout anyway.
  }
}
