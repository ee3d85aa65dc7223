import * as v from 'valibot'
import type { QueryClient, QueryKey } from '@tanstack/react-query'
import { keepWebsiteInfo, readCachedWebsiteInfo, websiteInfoQuery } from '../api/website-info'
import type { Locale } from '../contract/common'
import { FIRST_SCREEN_ID, FirstScreenSchema } from '../contract/site'
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
  let parsed
  try {
    parsed = v.safeParse(FirstScreenSchema, JSON.parse(element.textContent ?? ''))
  } catch {
    return false
  }
  if (!parsed.success) return false
  const { generated_at: updatedAt, website_info, slider, products } = parsed.output
  const seed = (queryKey: QueryKey, data: () => unknown) => {
    if ((queryClient.getQueryState(queryKey)?.dataUpdatedAt ?? 0) >= updatedAt) return
    queryClient.setQueryData(queryKey, data(), { updatedAt })
  }
  if ((readCachedWebsiteInfo()?.timestamp ?? 0) < updatedAt)
    seed(websiteInfoQuery().queryKey, () => keepWebsiteInfo(website_info, updatedAt))
  seed(siteQueries.slider().queryKey, () => slider)
  // Home's products come in one language; another language asks for its own.
  if (parsed.output.locale !== locale) return false
  seed(catalogueQueries.products(locale).queryKey, () => products)
  return true
}
