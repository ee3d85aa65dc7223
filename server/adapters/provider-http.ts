import * as v from 'valibot'
import type { ProviderConfig } from '../config'
import { errorFields, type Logger } from '../log'
import {
  ProviderError,
  type PlacedOrder,
  type Provider,
  type ProviderOrder,
  type ProviderOrderStatus,
} from './provider'

/*
 * The provider's HTTP API, JSON both ways, every call with `Authorization: Bearer
 * PROVIDER_TOKEN` (when set) and a timeout of PROVIDER_TIMEOUT_MS:
 *
 * GET  {PROVIDER_URL}/players?api_id=1&number=5123456789
 * GET  {PROVIDER_URL}/players?api_name=pubg-mobile&number=5123456789
 *      200 {"username": "Player name"}   404: no such player
 * POST {PROVIDER_URL}/orders            header Idempotency-Key: order-<our id>
 *      {"reference": "<our order id>", "product_id", "package_id", "provider_package_id",
 *       "product_reference", "quantity", "player_number", "player_name", "service_type",
 *       "social_link", "wallet_address", "email_or_phone_number", "password",
 *       "contact_number", "requirements": {name: value}}
 *      200/201 {"reference": "<provider's reference>"}   4xx: refused (the order is FAILED)
 * POST {PROVIDER_URL}/orders/status
 *      {"references": ["<provider's reference>", ...]}
 *      200 {"orders": [{"reference", "status": "WAITING"|"COMPLETED"|"CANCELED",
 *                       "codes": ["..."], "note": "...", "reason": "...",
 *                       "expiry_date": "YYYY-MM-DD"}]}
 * Any other answer, or none in time, is a ProviderError: nothing changes on our side.
 */

const LookupReply = v.object({ username: v.pipe(v.string(), v.minLength(1)) })
const PlaceReply = v.object({ reference: v.pipe(v.string(), v.minLength(1), v.maxLength(255)) })
const StatusReply = v.object({
  orders: v.array(
    v.object({
      reference: v.string(),
      status: v.picklist(['WAITING', 'COMPLETED', 'CANCELED']),
      codes: v.nullish(v.array(v.string())),
      note: v.nullish(v.string()),
      reason: v.nullish(v.string()),
      expiry_date: v.nullish(v.string()),
    }),
  ),
})

/** At most this many references per status call. */
const STATUS_BATCH = 100

export function createHttpProvider(
  config: ProviderConfig,
  { logger, fetch: fetchImpl = fetch }: { logger?: Logger; fetch?: typeof fetch } = {},
): Provider {
  async function call(
    method: 'GET' | 'POST',
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<Response> {
    try {
      return await fetchImpl(`${config.url}${path}`, {
        method,
        headers: {
          Accept: 'application/json',
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
          ...(config.token ? { Authorization: `Bearer ${config.token}` } : {}),
          ...headers,
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(config.timeoutMs),
      })
    } catch (err) {
      logger?.error('provider request failed', { method, path, ...errorFields(err) })
      throw new ProviderError('The provider could not be reached', { cause: err })
    }
  }

  async function json<S extends v.GenericSchema>(
    res: Response,
    schema: S,
    what: string,
  ): Promise<v.InferOutput<S>> {
    const parsed = v.safeParse(schema, await res.json().catch(() => undefined))
    if (!parsed.success) {
      logger?.error('provider answer unusable', { what, status: res.status })
      throw new ProviderError(`The provider's ${what} answer was not understood`)
    }
    return parsed.output
  }

  async function failure(res: Response, what: string): Promise<never> {
    const detail = await res.text().catch(() => '')
    logger?.error('provider refused', { what, status: res.status, detail: detail.slice(0, 500) })
    throw new ProviderError(`The provider answered ${res.status} to ${what}`)
  }

  return {
    kind: 'http',

    async lookupPlayer(api, number) {
      const query = new URLSearchParams(
        api.kind === 'id' ? { api_id: String(api.id) } : { api_name: api.name },
      )
      query.set('number', number)
      const res = await call('GET', `/players?${query}`)
      if (res.status === 404) {
        await res.body?.cancel()
        return { found: false }
      }
      if (!res.ok) return failure(res, 'player search')
      return { found: true, name: (await json(res, LookupReply, 'player search')).username }
    },

    async placeOrder(order: ProviderOrder): Promise<PlacedOrder> {
      const res = await call(
        'POST',
        '/orders',
        {
          reference: String(order.id),
          product_id: order.productId,
          package_id: order.packageId,
          provider_package_id: order.providerPackageId,
          product_reference: order.productReference,
          quantity: order.quantity,
          player_number: order.playerNumber,
          player_name: order.playerName,
          service_type: order.serviceType,
          social_link: order.socialLink,
          wallet_address: order.walletAddress,
          email_or_phone_number: order.emailOrPhoneNumber,
          password: order.password,
          contact_number: order.contactNumber,
          requirements: order.requirements,
        },
        // A retried hand-over must not become a second order at the provider.
        { 'Idempotency-Key': `order-${order.id}` },
      )
      if (res.status >= 400 && res.status < 500) {
        const detail = (await res.text().catch(() => '')).slice(0, 500)
        logger?.warn('provider refused the order', { order: order.id, status: res.status, detail })
        return { ref: null, status: 'FAILED', detail }
      }
      if (!res.ok) return failure(res, 'order')
      return { ref: (await json(res, PlaceReply, 'order')).reference, status: 'WAITING' }
    },

    async orderStatus(refs) {
      const answers: ProviderOrderStatus[] = []
      for (let i = 0; i < refs.length; i += STATUS_BATCH) {
        const res = await call('POST', '/orders/status', {
          references: refs.slice(i, i + STATUS_BATCH),
        })
        if (!res.ok) return failure(res, 'order status')
        for (const o of (await json(res, StatusReply, 'order status')).orders) {
          answers.push({
            ref: o.reference,
            status: o.status,
            codes: o.codes ?? undefined,
            note: o.note ?? undefined,
            reason: o.reason ?? undefined,
            expiryDate: o.expiry_date ?? undefined,
          })
        }
      }
      return answers
    },
  }
}
