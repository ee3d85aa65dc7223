import type { QueryClient } from '@tanstack/react-query'
import { createHashHistory, createRouter } from '@tanstack/react-router'
import { getToken } from './api/token'
import { RouteError } from './app/not-found'
import { routeTree } from './routeTree.gen'

export function createAppRouter(queryClient: QueryClient) {
  const router = createRouter({
    routeTree,
    history: createHashHistory(),
    context: { queryClient, auth: { isSignedIn: () => !!getToken() } },
    defaultPreload: 'intent',
    // The query cache decides freshness; the router must not hold its own copy.
    defaultPreloadStaleTime: 0,
    defaultErrorComponent: RouteError,
    scrollRestoration: false,
  })
  // The page scrolls to the top on every path change.
  router.subscribe('onResolved', ({ pathChanged }) => {
    if (pathChanged) window.scrollTo(0, 0)
  })
  return router
}

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof createAppRouter>
  }
}
