import { createContext, useContext, type AnchorHTMLAttributes, type ComponentType } from 'react'
// The router's own search serializer and comparison (small pure functions), so a link before
// the router goes exactly where its own would.
// eslint-disable-next-line no-restricted-imports
import {
  deepEqual,
  defaultStringifySearch,
  type LinkComponent,
  type NavigateOptions,
} from '@tanstack/react-router'

/**
 * Links and navigation that work before the router has loaded. A page's first screen is shown
 * and hydrated without the router (docs/architecture.md, The first load): its links are then
 * plain links to the same addresses, and the router takes the page over at the first change
 * of address. The shell says which of the two its links are.
 */
export interface Navigation {
  Link: LinkComponent<'a'>
  navigate: (options: NavigateOptions) => Promise<void>
}

/** Where the page is, as the router reads it from the address (`/#/search?q=1`). */
export interface PlainLocation {
  pathname: string
  search: Record<string, unknown>
}

/** What a link of the storefront passes: where it goes, and the anchor's attributes. */
interface PlainLinkProps extends AnchorHTMLAttributes<HTMLAnchorElement> {
  to: string
  params?: Record<string, string>
  search?: Record<string, unknown>
  activeOptions?: { exact?: boolean; includeSearch?: boolean }
}

/** `to` with its parameters (`$id`, `{$number}`) filled in, as the router writes it. */
function pathOf(to: string, params: Record<string, string> = {}): string {
  return to.replace(/\{\$(\w+)\}|\$(\w+)/g, (_, braced?: string, bare?: string) =>
    encodeURIComponent(params[(braced ?? bare)!] ?? ''),
  )
}

const withoutTrailingSlash = (path: string) => (path === '/' ? path : path.replace(/\/$/, ''))

/** The router's rule for a link that shows where the customer is (its `activeOptions`). */
function isActive(
  at: PlainLocation,
  path: string,
  search: Record<string, unknown>,
  { exact = false, includeSearch = true }: PlainLinkProps['activeOptions'] = {},
): boolean {
  const current = withoutTrailingSlash(at.pathname)
  const next = withoutTrailingSlash(path)
  const onPath = exact
    ? current === next
    : current.startsWith(next) && (current.length === next.length || current[next.length] === '/')
  return onPath && (!includeSearch || deepEqual(at.search, search, !exact))
}

/**
 * A link before the router: the address the router's link has (the hash history's) and its
 * marks of the link to where the customer is. Followed by the browser; the router, once
 * loaded, shows where it went.
 */
function plainLink(at: PlainLocation) {
  return function PlainLink({
    to,
    params,
    search = {},
    activeOptions,
    className,
    ...anchor
  }: PlainLinkProps) {
    const path = pathOf(to, params)
    const active = isActive(at, path, search, activeOptions)
    return (
      <a
        className={active ? `${className ?? ''} active`.trim() : className}
        {...anchor}
        href={`/#${path}${defaultStringifySearch(search)}`}
        data-status={active ? 'active' : undefined}
        aria-current={active ? 'page' : undefined}
      />
    )
  }
}

/** The navigation before the router, on the page at `at`: plain links, and `navigate`. */
export function plainNavigation(
  navigate: Navigation['navigate'],
  at: PlainLocation = { pathname: '/', search: {} },
): Navigation {
  return { Link: plainLink(at) as unknown as LinkComponent<'a'>, navigate }
}

const NavigationContext = createContext<Navigation>(
  plainNavigation(() => Promise.reject(new Error('No router'))),
)
export const NavigationProvider = NavigationContext.Provider

/** The storefront's link: the router's once it has loaded; typed as the router's. */
export const AppLink = ((props: PlainLinkProps) => {
  const Link = useContext(NavigationContext).Link as unknown as ComponentType<PlainLinkProps>
  return <Link {...props} />
}) as unknown as LinkComponent<'a'>

/** Goes to a route: with the router once it renders the page, else by moving the address. */
export function useAppNavigate(): Navigation['navigate'] {
  return useContext(NavigationContext).navigate
}
