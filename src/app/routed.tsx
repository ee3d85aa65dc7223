import { useEffect, type ReactNode } from 'react'
import {
  Link,
  RouterContextProvider,
  RouterProvider,
  type LinkComponent,
  type LinkComponentProps,
} from '@tanstack/react-router'
import { createAppRouter } from '../router'
import type { Navigation } from '../ui/nav'

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
    after: <FollowLocation router={router} />,
  }
}
