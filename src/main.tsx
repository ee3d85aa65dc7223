// First: it starts the router's chunk for any page but home before the rest runs.
import { currentPath, currentSearch, earlyRouter } from './app/router-early'
import { startTransition, useEffect, type ReactNode } from 'react'
import { createRoot, hydrateRoot, type Root } from 'react-dom/client'
import { defaultParseSearch, type NavigateOptions } from '@tanstack/react-router'
import { configureApi } from './api/client'
import { getToken, keepSignedInCookie } from './api/token'
import { forgetUser, USER_KEY } from './api/session'
import { createQueryClient } from './api/query-client'
import { App } from './app/app'
import { FIRST_MESSAGES_PAGES, firstPageName, needsSignIn } from './app/first-page-paths'
import { firstPageOf } from './app/first-pages'
import { seedFirstScreen } from './app/first-screen'
import { plainNavigation } from './ui/nav'
import type { AppRouter, loadLinkedPages, routedTree } from './app/routed'
import { isListRoute, screenRouteOf } from './app/screen-routes'
import {
  activateLocale,
  currentLocale,
  storedLocale,
  subscribeLocale,
  wholeCatalogue,
} from './i18n/locale'
import { FIRST_SCREEN_ID, FIRST_SCREEN_PRESSES, FIRST_USE_EVENTS } from './contract/constants'
import { nextTask, whenIdle } from './ui/when-idle'
import './theme/theme.css'

const queryClient = createQueryClient()

// The customer's own replies carry texts in the language they were asked in (an order's
// product name): another language asks for them again. The catalogue's keys name the language.
let repliesLocale = storedLocale()
subscribeLocale(() => {
  if (currentLocale() === repliesLocale) return
  repliesLocale = currentLocale()
  void queryClient.invalidateQueries({ queryKey: USER_KEY })
})

interface Routing {
  router: AppRouter
  routedTree: typeof routedTree
  loadLinkedPages: typeof loadLinkedPages
}
/** The router once loaded, for the guards a 401 re-runs. */
let loadedRouter: AppRouter | undefined
let routerLoad: Promise<Routing> | undefined
let earlyLoad = earlyRouter
/**
 * The router and its route tree, loaded once: by another page at once, by home once its first
 * screen is on the page (docs/architecture.md, The first load).
 */
function loadRouter(): Promise<Routing> {
  routerLoad ??= (earlyLoad ?? import('./app/routed')).then(
    async ({ createAppRouter, routedTree, loadLinkedPages }) => {
      // Not in the task that evaluated the chunk (docs/architecture.md, The first load).
      await nextTask()
      return { router: (loadedRouter = createAppRouter(queryClient)), routedTree, loadLinkedPages }
    },
    (error: unknown) => {
      // Offline before the service worker had the file: a later try may find it.
      routerLoad = earlyLoad = undefined
      throw error
    },
  )
  return routerLoad
}

let root: Root | undefined
/** Whether the router renders the page (home's first screen is rendered without it). */
let routerShown = false

/**
 * Goes to a route. Before the router renders, home's first screen moves the address as its
 * links do, and the router takes over from there.
 */
function navigate(options: NavigateOptions): Promise<void> {
  return loadRouter().then(({ router }) => {
    if (routerShown) return router.navigate(options)
    const href = options.href ?? router.buildLocation(options).href
    if (options.replace) window.location.replace(`#${href}`)
    else window.location.hash = href
  })
}

configureApi({
  onForbidden: () => void navigate({ to: '/403' }),
  // A 401 means the session ended elsewhere: forget the user, then re-run the guards (a
  // customer's own page shown before the router hands over to it, whose guard sends to sign-in).
  onUnauthorized: () =>
    void forgetUser(queryClient).then(() =>
      routerShown ? loadedRouter?.invalidate() : needsSignIn(currentPath()) && handOver(),
    ),
})

// The cookie follows a session kept before it was: once the browser is idle (reading the
// cookies is a synchronous wait on the browser's cookie store).
whenIdle(keepSignedInCookie)

/**
 * Home's first screen stays until the customer leaves it: then, once the router has loaded,
 * it renders the page the address names inside the same shell (what was typed in the search
 * stays). If the router cannot load yet, the next link followed or the connection's return
 * tries again.
 */
let handingOver = false
function handOver() {
  if (handingOver || !root) return
  handingOver = true
  loadRouter()
    .then(async ({ router, routedTree }) => {
      await router.load()
      routerShown = true
      const routed = routedTree(router)
      startTransition(() => root!.render(<App queryClient={queryClient} {...routed} />))
    })
    .catch(() => {
      handingOver = false
      window.addEventListener('hashchange', handOver, { once: true })
      window.addEventListener('online', handOver, { once: true })
    })
}

/** What tells that the customer has started using the page (a scroll of any part of it too). */
const USE_EVENTS = [...FIRST_USE_EVENTS, 'scroll'] as const

/**
 * How long the page has been open (from its navigation) before the router loads without a use:
 * after the start, whose work a slow phone pays in full, and after a page that shows the
 * server's markup has started its storefront (4 s after its main picture's paint, docs/api.md,
 * The first screen).
 */
const ROUTER_AFTER_MS = 5000

/**
 * Once the first page shown without the router (home, src/app/first-pages.tsx) is on the page,
 * the router loads as soon as the customer starts using it, or once the page has been open
 * `ROUTER_AFTER_MS`, then the code of the pages it links to (`loadLinkedPages`), so that the
 * first link followed finds them; that link hands over to the router. `shown` is the address
 * (the hash) that page was made for.
 */
function RouterInTheBackground({ shown }: { shown: string }) {
  useEffect(() => {
    const listening = new AbortController()
    const stop = () => {
      listening.abort()
      clearTimeout(timer)
    }
    const load = () => {
      stop()
      loadRouter()
        .then(({ router, loadLinkedPages }) => loadLinkedPages(router))
        .catch(() => {})
      // What the next page shows waits for it too (home's first load came with its own messages).
      wholeCatalogue().catch(() => {})
    }
    const timer = setTimeout(load, ROUTER_AFTER_MS - performance.now())
    for (const type of USE_EVENTS)
      window.addEventListener(type, load, {
        capture: true,
        passive: true,
        signal: listening.signal,
      })
    window.addEventListener('hashchange', handOver, { once: true })
    // A link of the server's markup followed before the storefront started.
    if (window.location.hash !== shown) handOver()
    return stop
  }, [shown])
  return null
}

/**
 * The presses on the server's markup's buttons made before the storefront took it over, kept by
 * the page's first script (docs/api.md, The first screen), pressed again now that it has.
 */
function PressedAgain() {
  useEffect(() => {
    const kept = window as unknown as Record<string, HTMLElement[] | null | undefined>
    const pressed = kept[FIRST_SCREEN_PRESSES] ?? []
    kept[FIRST_SCREEN_PRESSES] = null
    // One a task, as a hand presses them: each sees the page the one before left.
    const pressNext = () => {
      const button = pressed.shift()
      if (!button) return
      if (button.isConnected) button.click()
      setTimeout(pressNext)
    }
    pressNext()
  }, [])
  return null
}

async function boot() {
  const locale = storedLocale()
  const path = currentPath()
  const isHome = path === '/'
  // The saved cache: when the page carries home's first screen, restored once home is shown
  // and the browser is idle; without it (offline, the page from the service worker) the
  // first render waits for the saved catalogue, so it never shows empty. Restoring keeps
  // whatever is newer.
  let restoring: Promise<void> | undefined
  const restore = () =>
    (restoring ??= import('./api/persist')
      .then(({ restoreQueryCache }) => restoreQueryCache(queryClient))
      .catch(() => {}))
  if (!isHome || !document.getElementById(FIRST_SCREEN_ID)) void restore()
  // The address the first page is made for.
  const shown = window.location.hash
  // Home's first screen needs neither the router nor the route tree, nor do the pages of
  // src/app/first-pages.tsx; another page needs them at once.
  const home = isHome ? import('./app/home-page') : undefined
  const first = isHome
    ? undefined
    : firstPageOf(queryClient, locale, path, currentSearch(), !!getToken())
  const routerFirst = isHome || first ? undefined : loadRouter()
  // The screen the page's first script asked the server for: a product's or package's page,
  // a signed-in customer's orders or wallet.
  const route = screenRouteOf(path)
  const routeSeeded = !route
    ? false
    : (isListRoute(route)
        ? import('./app/list-screens').then(({ takeListScreen }) =>
            takeListScreen(queryClient, route.kind, locale),
          )
        : import('./app/route-screens').then(({ takeRouteScreen }) =>
            takeRouteScreen(queryClient, route, locale),
          )
      ).catch(() => false)
  // The entry's modules were evaluated in this task; the replies that came with the page are
  // read in the next.
  await nextTask()
  const seeded = seedFirstScreen(queryClient, locale)
  // Home, a product's and a package's page wait only for the messages of the first load;
  // another page for the whole catalogue.
  const firstName = firstPageName(path)
  const firstOnly = isHome || (!!firstName && FIRST_MESSAGES_PAGES.has(firstName))
  await Promise.all([
    activateLocale(locale, { firstOnly, store: false }),
    seeded || restore(),
    routeSeeded,
  ])
  let app: ReactNode
  // A first page whose chunk cannot load (offline before the service worker had it) is left
  // to the router, which says so.
  const firstPage = await first?.catch(() => undefined)
  if (home) {
    const { HomePage } = await home
    app = (
      <App
        queryClient={queryClient}
        navigation={plainNavigation(navigate)}
        page={<HomePage />}
        after={<RouterInTheBackground shown={shown} />}
      />
    )
  } else if (firstPage) {
    app = (
      <App
        queryClient={queryClient}
        navigation={plainNavigation(navigate, {
          pathname: path,
          search: defaultParseSearch(currentSearch()),
        })}
        page={firstPage}
        after={<RouterInTheBackground shown={shown} />}
      />
    )
  } else {
    // The router's pages are not all in the first messages.
    const [{ router, routedTree }] = await Promise.all([
      routerFirst ?? loadRouter(),
      firstOnly && wholeCatalogue().catch(() => {}),
    ])
    routerShown = true
    app = <App queryClient={queryClient} {...routedTree(router)} />
  }
  if (isHome && seeded) whenIdle(() => void restore())
  // The server's markup, shown when the page's first script found this visit is the one it was
  // made for (signed out, home in its language or a product's or package's page in English;
  // signed in, the customer's orders or wallet in the page's language; docs/api.md, The first
  // screen): the storefront takes it over as it is, with the same data, instead of building the
  // page again.
  const markup = document.getElementById('first-screen-markup')
  // A page the router renders is rendered anew.
  const made = route ? !!firstPage && (await routeSeeded) : isHome && seeded
  if (markup && made && !document.documentElement.classList.contains('no-first-screen')) {
    document.getElementById('boot')?.remove()
    // Its forms waited for the storefront; a kept one (`data-kept`) waits for its own code
    // (src/ui/lazy-piece.tsx).
    for (const control of markup.querySelectorAll('[inert]:not([data-kept])'))
      control.removeAttribute('inert')
    // In a transition, hydration yields to the browser every few milliseconds (outside one,
    // React hydrates in a single task: a long task on a slow phone); a press meanwhile is kept
    // by the page's first script and made once hydration is done (PressedAgain).
    startTransition(() => {
      root = hydrateRoot(
        markup,
        <>
          {app}
          <PressedAgain />
        </>,
        {
          // Markup that differs (the connection went, newer saved data) is rendered anew.
          onRecoverableError: (error) => console.warn('The first screen was rendered again', error),
        },
      )
    })
    return
  }
  root = createRoot(document.getElementById('root')!)
  // A transition renders in slices that yield to the browser: no long task on a slow phone,
  // and the static skeleton in index.html stays until the page is ready.
  startTransition(() => root!.render(app))
}

void boot()
