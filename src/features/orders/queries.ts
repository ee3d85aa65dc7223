import { queryOptions, type QueryClient } from '@tanstack/react-query'
import { api } from '../../api/client'
import { USER_KEY } from '../../api/session'
import { firstListFilters } from '../../ui/dated-list'
import type { DatedListSearch } from '../../ui/list-filters'
import { datedListQuery, type DatedListFilters } from '../../ui/list-sort'
import type * as Contract from '../../contract/orders'
import type { ORDER_FILTER_STATUSES } from '../../contract/orders'

/** A reply schema, loaded with the reply: the orders' pages are first loads too. */
const reply =
  <K extends keyof typeof Contract>(name: K) =>
  () =>
    import('../../contract/orders').then((contract) => contract[name])

export const ORDERS_REFRESH_MS = 60_000

export type OrderFilters = DatedListFilters

export const orderQueries = {
  all: [...USER_KEY, 'orders'] as const,
  list: (filters: OrderFilters) =>
    queryOptions({
      queryKey: [...orderQueries.all, 'list', filters],
      queryFn: async ({ signal }) => {
        // A status refresh goes with each 60 s refresh of the orders (see docs/api.md,
        // GET /api/automated/get/status/bulk), side by side: the list is asked for again only
        // when it changed an order.
        const list = () =>
          api.get('orders', reply('OrderPageSchema'), { signal, query: datedListQuery(filters) })
        const refreshed = api
          .get('automated/get/status/bulk', reply('StatusBulkReplySchema'), { signal })
          .catch(() => undefined)
        const page = await list()
        return (await refreshed)?.data.updated ? list() : page
      },
      refetchInterval: ORDERS_REFRESH_MS,
    }),
  detail: (id: number) =>
    queryOptions({
      queryKey: [...orderQueries.all, 'detail', id],
      queryFn: ({ signal }) => api.get(`orders/${id}`, reply('OrderReplySchema'), { signal }),
      select: (reply) => reply.data,
      refetchInterval: ORDERS_REFRESH_MS,
    }),
}

/**
 * The orders page's first call, started before the page's chunk has loaded (a first page,
 * src/app/first-pages.tsx).
 */
export function prefetchOrders(
  queryClient: QueryClient,
  search: DatedListSearch<(typeof ORDER_FILTER_STATUSES)[number]>,
) {
  const filters = firstListFilters(queryClient, search, 'total_price')
  if (filters) void queryClient.prefetchQuery(orderQueries.list(filters))
}
