/// <reference lib="webworker" />
import { clientsClaim } from 'workbox-core'
import {
  cleanupOutdatedCaches,
  createHandlerBoundToURL,
  getCacheKeyForURL,
  precacheAndRoute,
} from 'workbox-precaching'
import { NavigationRoute, registerRoute } from 'workbox-routing'
import { CacheFirst, StaleWhileRevalidate } from 'workbox-strategies'
import { ExpirationPlugin } from 'workbox-expiration'
import { CacheableResponsePlugin } from 'workbox-cacheable-response'
import { isUsable, PAGE_CACHE, PAGE_URL } from './first-screen-page'
import { pushSubject, subjectPage } from '../src/pwa/notification-page'
import { notificationTarget } from './notification-target'

declare const self: ServiceWorkerGlobalScope

// The shell, both language catalogues and every route chunk. `/` is a navigation like any
// other page (below), not the precached index.html.
precacheAndRoute(self.__WB_MANIFEST, { directoryIndex: '' })
cleanupOutdatedCaches()
// The first visit is served by the worker as soon as it is active, so what that visit loads
// (website info, about, contact) is already kept for offline use. Updates still wait for the
// customer (see src/pwa/update-prompt.tsx).
clientsClaim()

const isPrecached = (url: string) => getCacheKeyForURL(url) !== undefined

/** The kept page with home's first screen, when this release can start it. */
async function keptPage(): Promise<Response | undefined> {
  const cache = await caches.open(PAGE_CACHE)
  const page = await cache.match(PAGE_URL)
  if (!page) return undefined
  if (isUsable(await page.clone().text(), isPrecached)) return page
  await cache.delete(PAGE_URL)
  return undefined
}

/** Asks the server for the page again, for the next start; offline, the last copy stays. */
async function keepPage(): Promise<void> {
  try {
    const page = await fetch(PAGE_URL, { cache: 'no-cache' })
    if (page.ok && isUsable(await page.clone().text(), isPrecached))
      await (await caches.open(PAGE_CACHE)).put(PAGE_URL, page)
  } catch {
    // Offline or refused: the copy kept before still serves.
  }
}

// A new worker keeps the page as soon as it starts: the next start is served with its first
// screen, not only the start after a navigation the worker has served.
self.addEventListener('activate', (event) => event.waitUntil(keepPage()))

// Hash routing means every page is index.html: the page the server last sent with home's
// first screen (sw/first-screen-page.ts), else the file as built. The API and media are never
// answered with it.
const shell = createHandlerBoundToURL('index.html')
registerRoute(
  new NavigationRoute(
    async (options) => {
      options.event.waitUntil(keepPage())
      return (await keptPage()) ?? shell(options)
    },
    { denylist: [/^\/api\//, /^\/media\//] },
  ),
)

/**
 * Public replies only, so no user's data is ever cached here: website info, slider, about,
 * contact and the catalogue. The network answers when it can; offline, the last copy does.
 */
const PUBLIC_API =
  /^\/api\/(website\/info|slider\/images|about-us\/info|contact-us\/info|products(\/|$|\?))/

registerRoute(
  ({ url, request, sameOrigin }) =>
    sameOrigin &&
    request.method === 'GET' &&
    PUBLIC_API.test(url.pathname) &&
    !request.headers.has('Authorization'),
  new StaleWhileRevalidate({
    cacheName: 'public-api',
    plugins: [
      new CacheableResponsePlugin({ statuses: [200] }),
      new ExpirationPlugin({
        maxEntries: 300,
        maxAgeSeconds: 7 * 24 * 3600,
        purgeOnQuotaError: true,
      }),
    ],
  }),
)

registerRoute(
  ({ url, request, sameOrigin }) =>
    request.destination === 'image' && (!sameOrigin || url.pathname.startsWith('/media/')),
  new CacheFirst({
    cacheName: 'images',
    plugins: [
      new CacheableResponsePlugin({ statuses: [0, 200] }),
      new ExpirationPlugin({
        maxEntries: 200,
        maxAgeSeconds: 30 * 24 * 3600,
        purgeOnQuotaError: true,
      }),
    ],
  }),
)

self.addEventListener('message', (event) => {
  const type = (event.data as { type?: string } | null)?.type
  if (type === 'SKIP_WAITING') void self.skipWaiting()
  // The storefront's language changed (src/i18n/locale.ts): the next start gets home in it.
  if (type === 'KEEP_PAGE') event.waitUntil(keepPage())
})

interface PushPayload {
  notification?: { title?: string; body?: string; icon?: string }
  data?: Record<string, string>
}

/**
 * Any push whose payload is a JSON object with `notification` {title, body} and `data` (as FCM
 * delivers it to a browser), whether or not Firebase sent it. With the store open and seen,
 * the page is told instead (its bell and the order's data update); otherwise a notification
 * shows, one per subject (`data.tag`: a newer one about an order replaces the older), that
 * opens the page of what it is about (`data.kind` and `data.id`: docs/api.md, Notifications).
 */
self.addEventListener('push', (event) => {
  let payload: PushPayload
  try {
    payload = (event.data?.json() as PushPayload) ?? {}
  } catch {
    payload = { notification: { body: event.data?.text() } }
  }
  const title = payload.notification?.title ?? payload.data?.title ?? ''
  const body = payload.notification?.body ?? payload.data?.body ?? ''
  if (!title && !body) return
  event.waitUntil(
    self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((windows) => {
      const ours = windows.filter((client) => client.url.startsWith(self.location.origin))
      for (const client of ours) client.postMessage({ type: 'push', payload })
      if (ours.some((client) => client.visibilityState === 'visible' && client.focused)) return
      return self.registration.showNotification(title || body, {
        body: title ? body : undefined,
        icon: payload.notification?.icon ?? '/icons/icon-192.png',
        badge: '/icons/icon-192.png',
        tag: payload.data?.tag,
        data: { url: `/#${subjectPage(pushSubject(payload.data))}` },
      })
    }),
  )
})

self.addEventListener('notificationclick', (event) => {
  event.notification.close()
  const target = notificationTarget(
    (event.notification.data as { url?: unknown } | null)?.url,
    self.location.origin,
  )
  event.waitUntil(
    self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then(async (windows) => {
      const open = windows.find((client) => client.url.startsWith(self.location.origin))
      if (open) {
        // Focusing can be refused (the browser decides); the store still goes to the page.
        await open.focus().catch(() => undefined)
        return open.navigate(target)
      }
      return self.clients.openWindow(target)
    }),
  )
})
