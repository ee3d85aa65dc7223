/**
 * The first of the entry's modules to run (src/main.tsx imports it first): a page other than
 * home asks for the router's chunk now, while the framework's code is still being evaluated,
 * instead of after it (docs/architecture.md, The first load).
 */

/** The path the hash history reads from the address (`/#/products?q=1` is `/products`). */
export function currentPath(): string {
  const href = window.location.hash.split('#')[1] ?? ''
  return href.split(/[?#]/)[0] || '/'
}

/** The router's chunk, asked for at once by any page but home. */
export const earlyRouter = currentPath() === '/' ? undefined : import('./routed')
