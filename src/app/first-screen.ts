import type { QueryClient, QueryKey } from '@tanstack/react-query'
import { firstScreenOf } from '../api/shapes'
import { keepWebsiteInfo, readCachedWebsiteInfo, websiteInfoQuery } from '../api/website-info'
import type { Locale } from '../contract/common'
import { FIRST_SCREEN_ID } from '../contract/constants'
import { catalogueQueries } from '../features/catalogue/queries'
import { siteQueries } from '../features/site/queries'

/**
 * A first visit paints home without waiting for the API: the server puts the replies home
 * needs first into the page (docs/api.md, The first screen). Each fills the query cache where
 * it is newer than what the cache holds (a page the browser kept may be older). A page without
 * them, from another backend or the service worker, changes nothing. True when home's products
 * in this language came with the page.
 */
export function seedFirstScreen(queryClient: QueryClient, locale: Locale): boolean {
  const element = document.getElementById(FIRST_SCREEN_ID)
  if (!element) return false
  element.remove()
  let screen
  try {
    // Checked as the API's replies are (src/api/shapes.ts), without waiting for valibot.
    screen = firstScreenOf(JSON.parse(element.textContent ?? ''))
  } catch {
    return false
  }
  if (!screen) return false
  const { generated_at: updatedAt, website_info, slider, products, groups, contact } = screen
  seedWebsiteInfo(queryClient, website_info, updatedAt)
  seedNewer(queryClient, siteQueries.slider().queryKey, slider, updatedAt)
  // Home's products and groups come in one language; another language asks for its own.
  if (screen.locale !== locale) return false
  seedNewer(queryClient, catalogueQueries.products(locale).queryKey, products, updatedAt)
  seedNewer(queryClient, catalogueQueries.groups(locale).queryKey, groups, updatedAt)
  // The footer's links: without them it would load the reply checks (valibot) to ask for them.
  seedNewer(queryClient, siteQueries.contact(locale).queryKey, contact, updatedAt)
  return true
}

/** Whether the cache holds nothing for `queryKey` as new as `updatedAt`. */
const olderThan = (queryClient: QueryClient, queryKey: QueryKey, updatedAt: number) =>
  (queryClient.getQueryState(queryKey)?.dataUpdatedAt ?? 0) < updatedAt

/** A reply that came with the page, put in the cache unless the cache holds a newer one. */
export function seedNewer(
  queryClient: QueryClient,
  queryKey: QueryKey,
  value: unknown,
  updatedAt: number,
): void {
  if (olderThan(queryClient, queryKey, updatedAt))
    queryClient.setQueryData(queryKey, value, { updatedAt })
}

/**
 * Website info that came with the page, kept and put in the cache where it is newer than what
 * is kept. Website info that breaks the contract is left out: the shell asks the API for it.
 */
export function seedWebsiteInfo(
  queryClient: QueryClient,
  reply: { website_info: string },
  updatedAt: number,
): void {
  const { queryKey } = websiteInfoQuery()
  if ((readCachedWebsiteInfo()?.timestamp ?? 0) >= updatedAt) return
  if (!olderThan(queryClient, queryKey, updatedAt)) return
  const info = keepWebsiteInfo(reply, updatedAt)
  if (info !== undefined) queryClient.setQueryData(queryKey, info, { updatedAt })
}
