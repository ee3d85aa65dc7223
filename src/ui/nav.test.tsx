import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { renderToStaticMarkup } from 'react-dom/server'
// The router's own links, to compare with.
// eslint-disable-next-line no-restricted-imports
import { createMemoryHistory, Link, RouterContextProvider } from '@tanstack/react-router'
import { createQueryClient } from '../api/query-client'
import { createAppRouter } from '../router'
import { AppLink, NavigationProvider, plainNavigation } from './nav'

/** The router at `href`, as the storefront's hash history writes its links. */
async function routerAt(href: string) {
  const history = createMemoryHistory({ initialEntries: [href] })
  history.createHref = (path) => `/#${path}`
  const router = createAppRouter(createQueryClient(), { history, isSignedIn: () => true })
  await router.load()
  return router
}

const attributes = (markup: string) =>
  Object.fromEntries(
    [...markup.matchAll(/ ([\w-]+)="([^"]*)"/g)].map(([, name, value]) => [name, value]),
  )

const links = [
  { to: '/' },
  { to: '/', activeOptions: { exact: true } },
  { to: '/about-us' },
  { to: '/sign-in' },
  { to: '/Orders' },
  { to: '/Orders', search: { page: 2 } },
  { to: '/Orders', search: { status: 'Canceled', page: 1 } },
  { to: '/search', search: { q: 'pubg mobile', page: 1 } },
  { to: '/search', search: { q: '123', page: 1 } },
  { to: '/products/products-{$number}/$id', params: { number: '3', id: '24' } },
] as const

describe('links before the router', () => {
  // The pages' loaders ask the API: offline here.
  beforeEach(() => {
    vi.spyOn(globalThis, 'fetch').mockRejectedValue(new TypeError('offline'))
  })
  afterEach(() => vi.restoreAllMocks())

  for (const [href, pathname, search] of [
    ['/', '/', {}],
    ['/about-us', '/about-us', {}],
    ['/Orders?page=2', '/Orders', { page: 2 }],
    ['/search?q=pubg+mobile&page=1', '/search', { q: 'pubg mobile', page: 1 }],
    ['/products/products-3/24', '/products/products-3/24', {}],
  ] as const)
    it(`on ${href}, go where the router's would, with its marks of the active link`, async () => {
      const router = await routerAt(href)
      const navigation = plainNavigation(() => Promise.resolve(), { pathname, search })
      for (const link of links) {
        const plain = renderToStaticMarkup(
          <NavigationProvider value={navigation}>
            <AppLink {...link} className="link">
              x
            </AppLink>
          </NavigationProvider>,
        )
        const routed = renderToStaticMarkup(
          <RouterContextProvider router={router}>
            <Link {...link} className="link">
              x
            </Link>
          </RouterContextProvider>,
        )
        expect(attributes(plain), JSON.stringify(link)).toEqual(attributes(routed))
      }
    })
})
