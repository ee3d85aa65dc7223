import { queryOptions } from '@tanstack/react-query'
import { api } from '../../api/client'
import { USER_KEY } from '../../api/session'
import type * as Contract from '../../contract/wallet'
import type { ReceiptMethod, UsdtNetwork } from '../../contract/wallet'

/*
 * The calls of charging the wallet, apart from the wallet's lists (./queries.ts): charging is
 * the heaviest first load, and the lists' filters are not part of it.
 */

/** A reply schema, loaded with the reply: the wallet's pages are first loads too. */
export const reply =
  <K extends keyof typeof Contract>(name: K) =>
  () =>
    import('../../contract/wallet').then((contract) => contract[name])

/** The key of everything of the customer's wallet, refreshed together. */
export const WALLET_KEY = [...USER_KEY, 'wallet'] as const

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
      queryKey: [...WALLET_KEY, 'usdt-open'],
      queryFn: ({ signal }) =>
        api.get('wallet/open-payment', reply('OpenUsdtPaymentReplySchema'), { signal }),
      select: (reply) => reply.data,
      staleTime: 0,
      meta: { persist: false },
    }),
  /** Whether a payment arrived: every 5 s until it did, and only while the page is seen. */
  check: (id: number) =>
    queryOptions({
      queryKey: [...WALLET_KEY, 'usdt-check', id],
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
