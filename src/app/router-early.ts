import { getToken } from '../api/token'
import { firstPageName } from './first-page-paths'

/**
 * The first of the entry's modules to run (src/main.tsx imports it first): a page the router
 * renders first (not home, nor those of src/app/first-page-paths.ts) asks for the router's
 * chunk now, while the framework's code is still being evaluated, instead of after it
 * (docs/architecture.md, The first load).
 */

/** The path the hash history reads from the address (`/#/products?q=1` is `/products`). */
export function currentPath(): string {
  const href = window.location.hash.split('#')[1] ?? ''
  return href.split(/[?#]/)[0] || '/'
}

/** Where in the address the hash history reads the search from (`?q=1`), or ''. */
export function currentSearch(): string {
  const href = window.location.hash.split('#')[1] ?? ''
  return /\?[^#]*/.exec(href)?.[0] ?? ''
}

/** The router's chunk, asked for at once by a page the router renders first. */
export const earlyRouter =
  currentPath() === '/' || firstPageName(currentPath(), !!getToken())
    ? undefined
    : import('./routed')
