import { queryOptions } from '@tanstack/react-query'
import { api } from '../../api/client'
import type { FormBody } from '../../api/client'
import { USER_KEY } from '../../api/session'
import {
  type OrderBody,
  PlaceOrderReplySchema,
  PlayerLookupReplySchema,
  PlayerNumberReplySchema,
} from '../../contract/orders'
import type { Purchasable } from './item'

export const orderingQueries = {
  playerNumber: (productId: number) =>
    queryOptions({
      queryKey: [...USER_KEY, 'player-number', productId],
      queryFn: ({ signal }) =>
        api.get('player_number/info', PlayerNumberReplySchema, {
          signal,
          query: { product_id: productId },
        }),
      select: (reply) => reply.data.player_number ?? '',
    }),
}

/** A third-party API id asks th-p-apis, otherwise the as7ab name lookup. */
export function lookupPlayer(item: Purchasable, number: string) {
  const { thirdPartyApiId, thirdPartyAs7abApi } = item.terms
  const path = thirdPartyApiId
    ? (`th-p-apis/${thirdPartyApiId}` as const)
    : (`automated/get/player/name/${encodeURIComponent(number)}/${encodeURIComponent(thirdPartyAs7abApi ?? '')}` as const)
  return api.get(path, PlayerLookupReplySchema, {
    query: thirdPartyApiId
      ? { number, product_id: item.productId }
      : { product_id: item.productId },
  })
}

/** The order call; the key makes its retries safe. */
export function placeOrder(body: FormBody<OrderBody>, idempotencyKey: string, playerName?: string) {
  return api.post('automated/get/packages', PlaceOrderReplySchema, {
    body,
    query: playerName ? { player_name: playerName } : undefined,
    headers: { 'Idempotency-Key': idempotencyKey },
  })
}
