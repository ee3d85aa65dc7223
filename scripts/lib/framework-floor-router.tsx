/** The router scripts/lib/framework-floor.tsx hands over to once home is shown. */
import {
  Outlet,
  RouterProvider,
  createHashHistory,
  createRootRoute,
  createRoute,
  createRouter,
  lazyRouteComponent,
} from '@tanstack/react-router'
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query'
import { i18n } from '@lingui/core'
import { I18nProvider } from '@lingui/react'
import { Home } from './framework-floor'

const root = createRootRoute({ component: Outlet })
const routeTree = root.addChildren([
  createRoute({ getParentRoute: () => root, path: '/', component: Home }),
  // A path of the store's, as the store's router types every link (src/router.tsx).
  createRoute({
    getParentRoute: () => root,
    path: '/search',
    component: lazyRouteComponent(() => import('./framework-floor-other')),
  }),
])
const router = createRouter({ routeTree, history: createHashHistory() })

export const routed = (queryClient: QueryClient) => (
  <I18nProvider i18n={i18n}>
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  </I18nProvider>
)
