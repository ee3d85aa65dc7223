import { keepPreviousData, queryOptions } from '@tanstack/react-query'
import { api } from '../../api/client'
import type { ConsoleOrderSearch } from './orders-search'

/* The Orders screen's calls (docs/api.md, Console), under the console's key (queries.ts). */

const schemas = () => import('../../contract/console-orders')
const call = { console: true } as const
const unsaved = { persist: false } as const
const ORDERS_KEY = ['console', 'orders'] as const
/** Every page of the list, whatever its filters: read again after an action. */
export const CONSOLE_ORDER_LISTS = [...ORDERS_KEY, 'list'] as const

/** The list's query as the server reads it (empty filters are left out). */
const listQuery = ({ status, customer, product, from, to, page }: ConsoleOrderSearch) => ({
  page,
  status,
  customer: customer.trim(),
  product: product.trim(),
  start_date: from,
  end_date: to,
})

export const consoleOrderQueries = {
  list: (search: ConsoleOrderSearch) =>
    queryOptions({
      queryKey: [...CONSOLE_ORDER_LISTS, search],
      queryFn: ({ signal }) =>
        api.get('admin/orders', () => schemas().then((s) => s.ConsoleOrderPageSchema), {
          ...call,
          signal,
          query: listQuery(search),
        }),
      placeholderData: keepPreviousData,
      meta: unsaved,
    }),
  detail: (id: number) =>
    queryOptions({
      queryKey: [...ORDERS_KEY, 'detail', id],
      queryFn: ({ signal }) =>
        api.get(`admin/orders/${id}`, () => schemas().then((s) => s.ConsoleOrderReplySchema), {
          ...call,
          signal,
        }),
      select: (reply) => reply.data,
      meta: unsaved,
    }),
}

const action = () => schemas().then((s) => s.ConsoleOrderActionReplySchema)

export const consoleOrderApi = {
  complete: (id: number, body: { codes: string; note: string; expiry: string }) =>
    api.post(`admin/orders/${id}/complete`, action, { ...call, body }),
  cancel: (id: number, reason: string) =>
    api.post(`admin/orders/${id}/cancel`, action, { ...call, body: { reason } }),
  retry: (id: number) => api.post(`admin/orders/${id}/retry`, action, call),
}
