import { createContext, useContext, type AnchorHTMLAttributes, type ComponentType } from 'react'
import type { LinkComponent, NavigateOptions } from '@tanstack/react-router'

/**
 * Links and navigation that work before the router has loaded. Home's first screen is shown
 * and hydrated without the router (docs/architecture.md, The first load): its links are then
 * plain links to the same addresses, and the router takes the page over at the first change
 * of address. The shell (src/app/shell.tsx) says which of the two its links are.
 */
export interface Navigation {
  Link: LinkComponent<'a'>
  navigate: (options: NavigateOptions) => Promise<void>
}

/** What a link of the storefront's shell passes: where it goes, and the anchor's attributes. */
interface PlainLinkProps extends AnchorHTMLAttributes<HTMLAnchorElement> {
  to: string
  params?: Record<string, string>
  activeOptions?: { exact?: boolean }
}

/** `to` with its parameters (`$id`, `{$number}`) filled in, as the router writes it. */
function pathOf(to: string, params: Record<string, string> = {}): string {
  return to.replace(/\{\$(\w+)\}|\$(\w+)/g, (_, braced?: string, bare?: string) =>
    encodeURIComponent(params[(braced ?? bare)!] ?? ''),
  )
}

/**
 * A link before the router: the address the router's link has (the hash history's), and, on
 * home, the marks of the active link. Followed by the browser; the router, once loaded, shows
 * where it went.
 */
function PlainLink({ to, params, activeOptions: _, className, ...anchor }: PlainLinkProps) {
  const path = pathOf(to, params)
  const active = path === '/'
  return (
    <a
      className={active ? `${className ?? ''} active`.trim() : className}
      {...anchor}
      href={`/#${path}`}
      data-status={active ? 'active' : undefined}
      aria-current={active ? 'page' : undefined}
    />
  )
}

/** Home's navigation before the router: plain links, and `navigate`, which waits for it. */
export function plainNavigation(navigate: Navigation['navigate']): Navigation {
  return { Link: PlainLink as unknown as LinkComponent<'a'>, navigate }
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
