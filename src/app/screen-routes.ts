// Imports nothing: the server reads these too.

/**
 * The pages besides home whose first screen the server renders: a product's and a package's,
 * the pages links to the store open most (docs/api.md, The first screen). The page's first
 * script asks for it when the page opens at one of them, and shows it.
 */
export const ROUTE_SCREEN_PATH = /^\/products\/products-[1-7]\/(packages\/)?(\d{1,10})$/

export type ScreenRoute = { kind: 'product' | 'package'; id: number }

export function screenRouteOf(path: string): ScreenRoute | undefined {
  const match = ROUTE_SCREEN_PATH.exec(path)
  return match ? { kind: match[1] ? 'package' : 'product', id: Number(match[2]) } : undefined
}

/** Where the page's first script keeps its request for the route's screen. */
export const ROUTE_SCREEN = '__routeScreen'
