import { keepPreviousData, queryOptions, type QueryClient } from '@tanstack/react-query'
import { api } from '../../api/client'
import { firstListFilters } from '../../ui/dated-list'
import type { DatedListSearch } from '../../ui/list-filters'
import { datedListQuery, type DatedListFilters } from '../../ui/list-sort'
import type { WalletLogStatus } from '../../contract/wallet'
import { reply, WALLET_KEY } from './charging-queries'

export type LogFilters = DatedListFilters<WalletLogStatus>

export const walletQueries = {
  all: WALLET_KEY,
  logs: (filters: LogFilters) =>
    queryOptions({
      queryKey: [...walletQueries.all, 'logs', filters],
      queryFn: ({ signal }) =>
        api.get('payment-logs', reply('PaymentLogPageSchema'), {
          signal,
          query: datedListQuery(filters),
        }),
      placeholderData: keepPreviousData,
    }),
  log: (id: number) =>
    queryOptions({
      queryKey: [...walletQueries.all, 'log', id],
      queryFn: ({ signal }) =>
        api.get(`payment-logs/${id}`, reply('PaymentLogReplySchema'), { signal }),
      select: (reply) => reply.data,
    }),
  charges: (page: number, sort: { sort_by?: string; sort_value?: string } = {}) =>
    queryOptions({
      queryKey: [...walletQueries.all, 'charges', page, sort],
      queryFn: ({ signal }) =>
        api.get('charging-processes', reply('ChargingProcessPageSchema'), {
          signal,
          query: { page, ...sort },
        }),
      placeholderData: keepPreviousData,
    }),
  charge: (id: number) =>
    queryOptions({
      queryKey: [...walletQueries.all, 'charge', id],
      queryFn: ({ signal }) =>
        api.get(`charging-processes/${id}`, reply('ChargingProcessReplySchema'), { signal }),
      select: (reply) => reply.data,
    }),
  /** The receipt photo of one's own top-up, fetched with the token: an object URL to show. */
  receipt: (path: string) =>
    queryOptions({
      queryKey: [...walletQueries.all, 'receipt', path],
      queryFn: async ({ signal }) => URL.createObjectURL(await api.blob(path, { signal })),
      staleTime: Infinity,
      // Object URLs live in this page only: never saved to IndexedDB.
      meta: { persist: false },
    }),
}

/**
 * The wallet page's first call, started before the page's chunk has loaded (a first page,
 * src/app/first-pages.tsx).
 */
export function prefetchWallet(queryClient: QueryClient, search: DatedListSearch<WalletLogStatus>) {
  const filters = firstListFilters(queryClient, search, 'value')
  if (filters) void queryClient.prefetchQuery(walletQueries.logs(filters))
}
