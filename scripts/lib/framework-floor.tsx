/**
 * The least a storefront on this stack can load first: an app that does nothing but hydrate
 * home with React DOM, fetch with TanStack Query and translate with Lingui, then hands over to
 * TanStack Router over a hash history (scripts/lib/framework-floor-router.tsx, one route split
 * off), as `src/main.tsx` does. `scripts/size.ts` builds it the way the storefront is built and
 * prints its first load next to home's, so the part the store's own code adds is known.
 */
import { startTransition, useEffect } from 'react'
import { hydrateRoot, type Root } from 'react-dom/client'
import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query'
import { i18n } from '@lingui/core'
import { I18nProvider, Trans, useLingui } from '@lingui/react'

export function Home() {
  const { i18n } = useLingui()
  const { data } = useQuery({
    queryKey: ['products'],
    queryFn: () => fetch('/api/products').then((reply) => reply.json() as Promise<string[]>),
  })
  return (
    <main>
      <h1>{i18n._('Products')}</h1>
      <Trans id="Showing {count}" values={{ count: data?.length ?? 0 }} />
      <a href="/#/search">{i18n._('Search')}</a>
    </main>
  )
}

const queryClient = new QueryClient()
let root: Root | undefined

function HandOver() {
  useEffect(() => {
    void import('./framework-floor-router').then(({ routed }) => root?.render(routed(queryClient)))
  }, [])
  return null
}

i18n.loadAndActivate({ locale: 'en', messages: {} })
startTransition(() => {
  root = hydrateRoot(
    document.getElementById('root')!,
    <I18nProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>
        <Home />
        <HandOver />
      </QueryClientProvider>
    </I18nProvider>,
  )
})
