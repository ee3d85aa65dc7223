// Imports nothing: the server reads these too.

/**
 * The pages besides home whose first screen the server renders (docs/api.md, The first screen):
 * a product's and a package's, the pages links to the store open most, and a signed-in
 * customer's orders and wallet (their first page, without filters). The page's first script
 * asks for it when the page opens at one of them, and shows it.
 */
export const ROUTE_SCREEN_PATH = /^\/products\/products-[1-7]\/(packages\/)?(\d{1,10})$/

/** The customer's own lists, by their paths. */
export const LIST_SCREENS = { '/Orders': 'orders', '/wallet': 'wallet' } as const

export type ListScreen = (typeof LIST_SCREENS)[keyof typeof LIST_SCREENS]

export type CatalogueRoute = { kind: 'product' | 'package'; id: number }
export type ScreenRoute = CatalogueRoute | { kind: ListScreen }

export const isListRoute = (route: ScreenRoute): route is { kind: ListScreen } =>
  route.kind === 'orders' || route.kind === 'wallet'

export function screenRouteOf(path: string): ScreenRoute | undefined {
  if (Object.hasOwn(LIST_SCREENS, path))
    return { kind: LIST_SCREENS[path as keyof typeof LIST_SCREENS] }
  const match = ROUTE_SCREEN_PATH.exec(path)
  return match ? { kind: match[1] ? 'package' : 'product', id: Number(match[2]) } : undefined
}

/** Where the page's first script keeps its request for the route's screen. */
export const ROUTE_SCREEN = '__routeScreen'

/**
 * The route's screen the page's first script asked for, once it has come (null when it could
 * not be shown; undefined when the script asked for none). Taken once: from then on the script
 * no longer shows one. Whenever it comes: asking the API instead would ask the same server for
 * the same replies.
 */
export async function takePendingScreen(): Promise<unknown> {
  const scope = window as unknown as Record<string, Promise<unknown> | undefined>
  const screen = await scope[ROUTE_SCREEN]
  delete scope[ROUTE_SCREEN]
  return screen
}

/**
 * Where the page's first script keeps, with a list's screen, what preloads the list page's own
 * modules: called with the storefront's entry, after the screen is painted.
 */
export const ROUTE_SCREEN_MODULES = '__routeScreenModules'
