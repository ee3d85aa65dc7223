/**
 * The least a storefront on this stack can load first: an app that does nothing but hydrate
 * with React DOM, route with TanStack Router over a hash history (one route split off), fetch
 * with TanStack Query and translate with Lingui, as `src/main.tsx` does. `scripts/size.ts`
 * builds it the way the storefront is built and prints its size next to home's first load, so
 * the part the store's own code adds is known.
 */
import { startTransition } from 'react'
import { hydrateRoot } from 'react-dom/client'
import {
  Link,
  Outlet,
  RouterProvider,
  createHashHistory,
  createRootRoute,
  createRoute,
  createRouter,
  lazyRouteComponent,
} from '@tanstack/react-router'
import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query'
import { i18n } from '@lingui/core'
import { I18nProvider, Trans, useLingui } from '@lingui/react'

function Home() {
  const { i18n } = useLingui()
  const { data } = useQuery({
    queryKey: ['products'],
    queryFn: () => fetch('/api/products').then((reply) => reply.json() as Promise<string[]>),
  })
  return (
    <main>
      <h1>{i18n._('Products')}</h1>
      <Trans id="Showing {count}" values={{ count: data?.length ?? 0 }} />
      <Link to="/search">{i18n._('Search')}</Link>
    </main>
  )
}

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
const queryClient = new QueryClient()

i18n.loadAndActivate({ locale: 'en', messages: {} })
startTransition(() => {
  hydrateRoot(
    document.getElementById('root')!,
    <I18nProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </I18nProvider>,
  )
})
