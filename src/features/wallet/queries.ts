import { keepPreviousData, queryOptions, type QueryClient } from '@tanstack/react-query'
import { api } from '../../api/client'
import { USER_KEY } from '../../api/session'
import { firstListFilters } from '../../ui/dated-list'
import type { DatedListSearch } from '../../ui/list-filters'
import { datedListQuery, type DatedListFilters } from '../../ui/list-sort'
import type * as Contract from '../../contract/wallet'
import type { ReceiptMethod, UsdtNetwork, WalletLogStatus } from '../../contract/wallet'

/** A reply schema, loaded with the reply: the wallet's pages are first loads too. */
const reply =
  <K extends keyof typeof Contract>(name: K) =>
  () =>
    import('../../contract/wallet').then((contract) => contract[name])

export type LogFilters = DatedListFilters<WalletLogStatus>

export const walletQueries = {
  all: [...USER_KEY, 'wallet'] as const,
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

/** What the charging page offers: the same for everyone, set by the operator. */
export const paymentInfoQuery = () =>
  queryOptions({
    queryKey: ['payments-info'],
    queryFn: ({ signal }) =>
      api.get('payments/info', reply('PaymentInfoReplySchema'), { signal, anonymous: true }),
    select: (reply) => reply.data,
  })

export const chargingApi = {
  /** A Whish Money or OMT Pay top-up with its receipt photo, for the operator to check. */
  withReceipt: (name: ReceiptMethod, value: string, image: Blob) => {
    const body = new FormData()
    body.append('name', name)
    body.append('value', value)
    body.append('image', image, image instanceof File ? image.name : 'receipt.jpg')
    return api.post('charging-processes', reply('ChargeReplySchema'), { body })
  },
  promo: (code: string) =>
    api.post('charging-processes', reply('ChargeReplySchema'), {
      query: { name: 'PROMO_CODE' },
      body: { promo_code: code },
    }),
}

/** Polled while the customer waits for a USDT transfer. */
export const USDT_POLL_MS = 5000

export const usdtQueries = {
  /** The customer's USDT payment still waiting, found again after a reload. */
  open: () =>
    queryOptions({
      queryKey: [...walletQueries.all, 'usdt-open'],
      queryFn: ({ signal }) =>
        api.get('wallet/open-payment', reply('OpenUsdtPaymentReplySchema'), { signal }),
      select: (reply) => reply.data,
      staleTime: 0,
      meta: { persist: false },
    }),
  /** Whether a payment arrived: every 5 s until it did, and only while the page is seen. */
  check: (id: number) =>
    queryOptions({
      queryKey: [...walletQueries.all, 'usdt-check', id],
      queryFn: ({ signal }) =>
        api.get(`wallet/check-payment/${id}`, reply('UsdtPaymentReplySchema'), { signal }),
      refetchInterval: (query) => (query.state.data?.paid ? false : USDT_POLL_MS),
      refetchIntervalInBackground: false,
      retry: false,
      meta: { persist: false },
    }),
}

export const usdtApi = {
  request: (amount: string, network: UsdtNetwork) =>
    api.post('wallet/request-payment', reply('UsdtPaymentReplySchema'), {
      body: { amount, network },
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
