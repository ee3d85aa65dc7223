import type { QueryClient } from '@tanstack/react-query'
import type { Locale } from '../contract/common'
import type { RouteScreenReplies } from '../contract/site'
import { catalogueQueries } from '../features/catalogue/queries'
import { siteQueries } from '../features/site/queries'
import { seedNewer, seedWebsiteInfo } from './first-screen'
import { takePendingScreen, type CatalogueRoute } from './screen-routes'

/**
 * The product's or package's screen the page's first script asked for, when it came and was
 * shown: its replies go in the query cache, so the storefront renders the same page over the
 * markup (hydrates it) instead of asking the API again. False when there is none (another
 * language than the page's, a session, another backend, an error). A list's screen is taken by
 * src/app/list-screens.ts.
 */
export async function takeRouteScreen(
  queryClient: QueryClient,
  route: CatalogueRoute,
  locale: Locale,
): Promise<boolean> {
  const screen = await takePendingScreen()
  if (!screen) return false
  try {
    // Loaded anyway for this page's replies.
    const [{ checkReply }, { RouteScreenSchema }] = await Promise.all([
      import('../api/check-reply'),
      import('../contract/site'),
    ])
    const checked = checkReply('first-screen', RouteScreenSchema, screen)
    if (!checked.ok || checked.output.locale !== locale) return false
    seedWebsiteInfo(queryClient, checked.output.website_info, checked.output.generated_at)
    return seedRouteScreen(queryClient, route, checked.output, checked.output.generated_at)
  } catch {
    return false
  }
}

/**
 * Puts a route screen's replies, read at `updatedAt`, in the query cache where they are newer
 * than what it holds. False when the replies its route needs are not all there.
 */
export function seedRouteScreen(
  queryClient: QueryClient,
  route: CatalogueRoute,
  replies: RouteScreenReplies,
  updatedAt: number,
): boolean {
  const { locale } = replies
  const entries =
    route.kind === 'product'
      ? ([
          [catalogueQueries.product(locale, route.id).queryKey, replies.product],
          [catalogueQueries.packages(locale, route.id).queryKey, replies.packages],
        ] as const)
      : ([[catalogueQueries.package(locale, route.id).queryKey, replies.package]] as const)
  if (entries.some(([, reply]) => reply === undefined)) return false
  for (const [queryKey, reply] of entries) seedNewer(queryClient, queryKey, reply, updatedAt)
  // The footer's links, in the screen's language.
  seedNewer(queryClient, siteQueries.contact(locale).queryKey, replies.contact, updatedAt)
  return true
}
