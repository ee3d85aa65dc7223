import { useEffect, type ReactNode } from 'react'
import {
  Link,
  RouterContextProvider,
  RouterProvider,
  type AnyRoute,
  type LinkComponent,
  type LinkComponentProps,
} from '@tanstack/react-router'
import { createAppRouter } from '../router'
import type { Navigation } from '../ui/nav'
import { whenIdle } from '../ui/when-idle'

export { createAppRouter }
export type AppRouter = ReturnType<typeof createAppRouter>

/**
 * The address can change while the storefront starts (a link of home's first screen or of the
 * server's markup followed, the back button) before its router listens: once mounted, the
 * router goes where the address now is. Renders nothing, so the server's markup is hydrated as
 * it is.
 */
function FollowLocation({ router }: { router: AppRouter }) {
  useEffect(() => {
    const { pathname, search } = router.history.location
    const shown = router.state.location
    if (pathname !== shown.pathname || search !== shown.searchStr) void router.load()
  }, [router])
  return null
}

/** A link of the shell, told apart from the others by where it goes and what it says. */
const linkKey = (link: Element) => `${link.getAttribute('href')} ${link.textContent}`

/**
 * The shell's links become the router's (new elements): the one that had the focus when the
 * router took over (the one the customer is on, the one just followed with the keyboard) keeps
 * it.
 */
function KeepFocus({ on }: { on: string | undefined }) {
  useEffect(() => {
    if (!on) return
    for (const link of document.querySelectorAll<HTMLElement>('header a, nav a'))
      if (linkKey(link) === on) return link.focus()
  }, [on])
  return null
}

/**
 * The storefront with its router, in three parts for `<Shell navigation={…}>{page}</Shell>
 * {after}` (src/main.tsx): the shell stays where home's first screen put it, its links now the
 * router's, and the router renders the pages inside it.
 */
export function routedTree(router: AppRouter): {
  navigation: Navigation
  page: ReactNode
  after: ReactNode
} {
  const focused = document.activeElement?.closest('header a, nav a')
  // The shell is around the router's pages, not in them: its links are given the router.
  const RoutedLink = (props: LinkComponentProps<'a'>) => (
    <RouterContextProvider router={router}>
      <Link {...props} />
    </RouterContextProvider>
  )
  return {
    navigation: {
      Link: RoutedLink as LinkComponent<'a'>,
      navigate: async (options) => {
        // An address as it is (a sign-in's way back): not rewritten by the route's search check.
        if (options.href) router.history[options.replace ? 'replace' : 'push'](options.href)
        else await router.navigate(options)
      },
    },
    page: <RouterProvider router={router} />,
    after: (
      <>
        <FollowLocation router={router} />
        <KeepFocus on={focused ? linkKey(focused) : undefined} />
      </>
    ),
  }
}

/**
 * The code of the pages the page's own content links to (home's products, a product's
 * packages, a customer's orders), loaded once the browser is idle: the first of them opened
 * waits for its replies, not for its code.
 */
export function loadLinkedPages(router: AppRouter) {
  whenIdle(() => {
    const routes = new Set<AnyRoute>()
    for (const link of document.querySelectorAll<HTMLAnchorElement>('main a[href]')) {
      const { origin, hash } = new URL(link.href)
      if (origin !== window.location.origin || !hash.startsWith('#/')) continue
      const [path = '/'] = hash.slice(1).split(/[?#]/)
      for (const route of router.getMatchedRoutes(path)[0]) routes.add(route)
    }
    for (const route of routes) void router.loadRouteChunk(route)?.catch(() => {})
  })
}
