import type { ReactNode } from 'react'
import type { QueryClient } from '@tanstack/react-query'
// The router's own search parser (a small pure function, in the entry already with its
// serializer, src/ui/nav.tsx): the page reads the address as its route will.
import { defaultParseSearch } from '@tanstack/react-router'
import type { Locale } from '../contract/locales'
import { catalogueQueries } from '../features/catalogue/queries'
import { searchPageSearch } from '../routes/-search'
import { FIRST_PAGE_PATHS } from './first-page-paths'

/**
 * The page at `path` (the address's search in `search`, `?q=…`) when it is one shown first
 * without the router (./first-page-paths.ts): the component its route renders, with what the
 * route reads from the address, once its chunk has loaded. Its data is asked for at once, as
 * its route's loader does.
 */
export function firstPageOf(
  queryClient: QueryClient,
  locale: Locale,
  path: string,
  search: string,
): Promise<ReactNode> | undefined {
  const group = FIRST_PAGE_PATHS.group.exec(path)
  if (group) {
    const id = Number(group[1])
    void queryClient.prefetchQuery(catalogueQueries.group(locale, id))
    return import('../features/catalogue/group-page').then(({ GroupPage }) => (
      <GroupPage key={id} id={id} />
    ))
  }
  if (FIRST_PAGE_PATHS.search.test(path)) {
    // As the router gives it: anything the address holds, each value checked as unknown.
    const parsed = defaultParseSearch(search) as Parameters<typeof searchPageSearch>[0]
    const { q, page } = searchPageSearch(parsed)
    return import('../features/catalogue/search-page').then(({ SearchPage }) => (
      <SearchPage q={q.trim()} page={page} />
    ))
  }
  return undefined
}
