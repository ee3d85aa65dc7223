import { describe, expect, it } from 'vitest'
import { renderToStaticMarkup } from 'react-dom/server'
import { createMemoryHistory, Link, RouterContextProvider } from '@tanstack/react-router'
import { createQueryClient } from '../api/query-client'
import { createAppRouter } from '../router'
import { AppLink } from './nav'

/** The router as the storefront's hash history writes its links, on home. */
function homeRouter() {
  const history = createMemoryHistory({ initialEntries: ['/'] })
  history.createHref = (href) => `/#${href}`
  return createAppRouter(createQueryClient(), { history, isSignedIn: () => false })
}

const attributes = (markup: string) =>
  Object.fromEntries(
    [...markup.matchAll(/ ([\w-]+)="([^"]*)"/g)].map(([, name, value]) => [name, value]),
  )

describe("home's links before the router", () => {
  it('go where the router would send them, with its marks of the active link', () => {
    const router = homeRouter()
    const links = [
      { to: '/' },
      { to: '/', activeOptions: { exact: true } },
      { to: '/about-us' },
      { to: '/sign-in' },
      { to: '/Orders' },
      { to: '/products/products-{$number}/$id', params: { number: '3', id: '24' } },
    ] as const
    for (const link of links) {
      const plain = renderToStaticMarkup(
        <AppLink {...link} className="link">
          x
        </AppLink>,
      )
      const routed = renderToStaticMarkup(
        <RouterContextProvider router={router}>
          <Link {...link} className="link">
            x
          </Link>
        </RouterContextProvider>,
      )
      expect(attributes(plain), link.to).toEqual(attributes(routed))
    }
  })
})
