import type { QueryClient } from '@tanstack/react-query'
import { checkReply } from '../api/check-reply'
import { profileQuery } from '../api/profile'
import type { Locale } from '../contract/common'
import { ORDER_FILTER_STATUSES, WALLET_LOG_STATUSES } from '../contract/constants'
import {
  ListScreenSchemas,
  type ListScreenReplies,
  type ListScreens,
} from '../contract/list-screens'
import { orderQueries } from '../features/orders/queries'
import { walletQueries } from '../features/wallet/queries'
import { siteQueries } from '../features/site/queries'
import { listSearch, type SearchInput } from '../routes/-search'
import { firstListFilters } from '../ui/dated-list'
import { seedNewer, seedWebsiteInfo } from './first-screen'
import { serveAccountBar } from './top-bar'
import { takePendingScreen, type ListScreen } from './screen-routes'

/** The address's search of a list opened without filters, as the router gives it. */
const NO_FILTERS = {} as SearchInput<Record<string, never>>

/**
 * Puts a list screen's list, read at `updatedAt`, in the query cache where it is newer than what
 * it holds, under the key the list's page, opened without filters, asks for, and the customer's
 * profile, which the account bar shows with it. Website info must be in the cache already: the
 * list's filters read the store's time zone.
 */
export function seedListScreen<K extends ListScreen>(
  queryClient: QueryClient,
  kind: K,
  replies: ListScreenReplies<K>,
  updatedAt: number,
): void {
  const first = <S extends string>(statuses: readonly S[], amount: 'total_price' | 'value') =>
    firstListFilters(queryClient, listSearch(statuses)(NO_FILTERS), amount)
  if (kind === 'orders') {
    const filters = first(ORDER_FILTER_STATUSES, 'total_price')
    const { orders } = replies as ListScreenReplies<'orders'>
    if (filters) seedNewer(queryClient, orderQueries.list(filters).queryKey, orders, updatedAt)
  } else {
    const filters = first(WALLET_LOG_STATUSES, 'value')
    const { logs } = replies as ListScreenReplies<'wallet'>
    if (filters) seedNewer(queryClient, walletQueries.logs(filters).queryKey, logs, updatedAt)
  }
  // Never a time ahead of the device's clock, which would keep it fresh too long.
  const profileAt = Math.min(updatedAt, Date.now())
  seedNewer(queryClient, profileQuery().queryKey, replies.profile, profileAt)
  // The footer's links, in the screen's language.
  seedNewer(queryClient, siteQueries.contact(replies.locale).queryKey, replies.contact, updatedAt)
}

/**
 * The list screen the page's first script fetched and showed, checked and put in the query
 * cache, so the storefront hydrates it; false when there is none, or it breaks the contract or
 * is in another language than the storefront's. This module comes with what the list's page
 * runs first (its files are preloaded with the page, src/api/early-replies.ts).
 */
export async function takeListScreen(
  queryClient: QueryClient,
  kind: ListScreen,
  locale: Locale,
): Promise<boolean> {
  // The screen comes with the account bar and bell, hydrated with it: their code first (the
  // page's first script preloaded it). Without it, the storefront renders the page anew.
  const [screen] = await Promise.all([takePendingScreen(), serveAccountBar()])
  if (!screen) return false
  const checked = checkReply('first-screen', ListScreenSchemas[kind], screen)
  if (!checked.ok || checked.output.locale !== locale) return false
  const { website_info, generated_at } = checked.output
  seedWebsiteInfo(queryClient, website_info, generated_at)
  seedListScreen(queryClient, kind, checked.output as ListScreens[typeof kind], generated_at)
  return true
}
