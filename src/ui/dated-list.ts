import { useQuery, type QueryClient } from '@tanstack/react-query'
import { websiteInfoQuery } from '../api/website-info'
import { DATE_RANGE_MARK } from '../contract/constants'
import { dateRange } from './date-filter'
import type { DatedListSearch } from './list-filters'
import { sortQuery } from './list-sort'

/**
 * What the list's call is asked for those filters: the status, the sort (by `amount` for the
 * highest or lowest first) and the page, with the date preset as days of the store's zone.
 */
export function useDatedListQuery<S extends string>(
  search: DatedListSearch<S>,
  amount: 'total_price' | 'value',
) {
  const { data: info } = useQuery(websiteInfoQuery())
  return datedListFilters(search, amount, info?.time_zone)
}

/** The same, outside a component. */
export function datedListFilters<S extends string>(
  search: DatedListSearch<S>,
  amount: 'total_price' | 'value',
  timeZone: string | null | undefined,
) {
  return {
    status: search.status || undefined,
    ...sortQuery(search.sort, amount),
    page: search.page,
    ...dateRange(search.date, { start: search.start, end: search.end }, { timeZone }),
  }
}

/**
 * What the page's first render will ask for, so that its call can start before it renders;
 * undefined when that needs the store's zone and it is not known yet.
 */
export function firstListFilters<S extends string>(
  queryClient: QueryClient,
  search: DatedListSearch<S>,
  amount: 'total_price' | 'value',
) {
  const timeZone = queryClient.getQueryData(websiteInfoQuery().queryKey)?.time_zone
  if (search.date && search.date !== DATE_RANGE_MARK && !timeZone) return undefined
  return datedListFilters(search, amount, timeZone)
}
