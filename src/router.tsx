import type { QueryClient } from '@tanstack/react-query'
import { createHashHistory, createRouter, type RouterHistory } from '@tanstack/react-router'
import { getToken } from './api/token'
import { RouteError } from './app/not-found'
import { routeTree } from './routeTree.gen'

/**
 * The storefront's router. The server's first screen of home (src/entry-server.tsx) makes the
 * same one over a memory history, for a visitor who is not signed in, so the markup it renders
 * is the markup the storefront's first render hydrates.
 */
export function createAppRouter(
  queryClient: QueryClient,
  { history, isSignedIn }: { history: RouterHistory; isSignedIn: () => boolean } = {
    history: createHashHistory(),
    isSignedIn: () => !!getToken(),
  },
) {
  const router = createRouter({
    routeTree,
    history,
    context: { queryClient, auth: { isSignedIn } },
    defaultPreload: 'intent',
    // The query cache decides freshness; the router must not hold its own copy.
    defaultPreloadStaleTime: 0,
    defaultErrorComponent: RouteError,
    scrollRestoration: false,
  })
  // The page scrolls to the top on every path change.
  router.subscribe('onResolved', ({ pathChanged }) => {
    if (pathChanged && typeof window !== 'undefined') window.scrollTo(0, 0)
  })
  return router
}

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof createAppRouter>
  }
}
