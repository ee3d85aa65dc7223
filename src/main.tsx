import { startTransition, useEffect } from 'react'
import { createRoot, hydrateRoot } from 'react-dom/client'
import { configureApi } from './api/client'
import { forgetUser } from './api/session'
import { createQueryClient } from './api/query-client'
import { App } from './app/app'
import { seedFirstScreen } from './app/first-screen'
import { screenRouteOf } from './app/screen-routes'
import { activateLocale, storedLocale } from './i18n/locale'
import { createAppRouter } from './router'
import './theme/theme.css'

const queryClient = createQueryClient()
const router = createAppRouter(queryClient)

configureApi({
  onForbidden: () => void router.navigate({ to: '/403' }),
  // A 401 means the session ended elsewhere: forget the user, then re-run the guards.
  onUnauthorized: () => void forgetUser(queryClient).then(() => router.invalidate()),
})

/**
 * The address can change while the storefront starts (a link of the server's markup followed,
 * the back button) before its router listens: once mounted, the router goes where the address
 * now is. Renders nothing, so the server's markup is hydrated as it is.
 */
function FollowLocation() {
  useEffect(() => {
    const { pathname, search } = router.history.location
    const shown = router.state.location
    if (pathname !== shown.pathname || search !== shown.searchStr) void router.load()
  }, [])
  return null
}

async function boot() {
  const locale = storedLocale()
  // The saved cache is restored in the background when the page carries home's first screen;
  // without it (offline, the page from the service worker) the first render waits for the
  // saved catalogue, so it never shows empty. Restoring keeps whatever is newer.
  const restored = import('./api/persist')
    .then(({ restoreQueryCache }) => restoreQueryCache(queryClient))
    .catch(() => {})
  const seeded = seedFirstScreen(queryClient, locale)
  const path = router.history.location.pathname
  // A product's or package's page the page's first script asked the server for.
  const route = screenRouteOf(path)
  const routeSeeded = route
    ? import('./app/route-screens')
        .then(({ takeRouteScreen }) => takeRouteScreen(queryClient, route, locale))
        .catch(() => false)
    : false
  // Home waits only for the messages of its first load; another page for the whole catalogue.
  const firstOnly = path === '/'
  await Promise.all([
    activateLocale(locale, { firstOnly, store: false }),
    seeded || restored,
    routeSeeded,
  ])
  const app = (
    <>
      <App queryClient={queryClient} router={router} />
      <FollowLocation />
    </>
  )
  // The server's markup, shown when the page's first script found this visit is the one it was
  // made for (signed out; home in its language, a product's or package's page in English;
  // docs/api.md, The first screen): the storefront takes it over as it is, with the same data,
  // instead of building the page again.
  const markup = document.getElementById('first-screen-markup')
  const made = route ? await routeSeeded : path === '/' && seeded
  if (markup && made && !document.documentElement.classList.contains('no-first-screen')) {
    await router.load()
    // Rendered as the server rendered it: a router in this mode does not wrap its matches in
    // a Suspense boundary of its own.
    router.ssr = { manifest: undefined }
    document.getElementById('boot')?.remove()
    // Its controls waited for the storefront.
    for (const control of markup.querySelectorAll('[inert]')) control.removeAttribute('inert')
    // In a transition, hydration yields to the browser every few milliseconds (outside one,
    // React hydrates in a single task: a long task on a slow phone), and a tap on a part not
    // yet hydrated hydrates that part first.
    startTransition(() => {
      hydrateRoot(markup, app, {
        // Markup that differs (the connection went, newer saved data) is rendered anew.
        onRecoverableError: (error) => console.warn('The first screen was rendered again', error),
      })
    })
    return
  }
  const root = createRoot(document.getElementById('root')!)
  // A transition renders in slices that yield to the browser: no long task on a slow phone,
  // and the static skeleton in index.html stays until the page is ready.
  startTransition(() => root.render(app))
}

void boot()
