import { Hono, type Context } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import * as v from 'valibot'
import type { Wire } from '../../src/contract/common'
import { ENDPOINTS as E } from '../../src/contract/endpoints'
import type {
  V2AddReplySchema,
  V2BalanceReplySchema,
  V2CancelReplySchema,
  V2Error,
  V2RefillManyReplySchema,
  V2RefillStatusManyReplySchema,
} from '../../src/contract/reseller'
import { V2ActionSchema } from '../../src/contract/reseller'
import { isApiToken } from '../../src/contract/token'
import { microsText } from '../../src/domain/money'
import { isDatabaseUnavailable } from '../db'
import { checkApiToken, refusalHeaders } from '../http/api-token'
import { readFields } from '../http/body'
import type { AppEnv } from '../http/env'
import { ApiError, RetryLaterError } from '../core/errors'
import { ValidationError } from '../core/errors'
import { t, type MessageId } from '../i18n'
import { errorFields } from '../log'
import { stockOptions, type CheckoutContext } from '../services/orders'
import {
  addOrder,
  listServices,
  manyOrderStatuses,
  oneOrderStatus,
  refillIds,
  refusedOrders,
} from '../services/reseller'

/**
 * The v2 API's failure shape: `{"error": ...}` in the request's language. An expected refusal
 * (a bad key, address, action, service, order or field) answers 200, as panels do: their
 * clients throw on any other status and lose the sentence, and a 404 while polling looks like
 * a transport failure that they retry forever. What a caller must handle as HTTP keeps its
 * status: 413, 429 (with Retry-After) and 5xx.
 */
function failure(
  c: Context<AppEnv>,
  status: ContentfulStatusCode,
  id: MessageId,
  values?: Record<string, unknown>,
) {
  const reply: V2Error = { error: t(c.var.locale, id, values) }
  return c.json(reply, status >= 500 || status === 413 || status === 429 ? status : 200)
}

const text = (value: unknown) => (typeof value === 'string' ? value.trim() : undefined)

/** Expected failures of the services, said the v2 way; a bug stays a logged 500. */
function failed(c: Context<AppEnv>, err: unknown) {
  if (err instanceof ValidationError) {
    const reply: V2Error = { error: err.toReply(c.var.locale).message }
    return c.json(reply)
  }
  if (err instanceof ApiError) {
    if (err instanceof RetryLaterError)
      c.header('Retry-After', String(Math.max(1, Math.ceil(err.retryAfterSeconds))))
    return failure(c, err.status, err.messageId, err.values)
  }
  if (isDatabaseUnavailable(err)) {
    c.header('Retry-After', '2')
    return failure(c, 503, 'errors.busy')
  }
  c.var.logger.error('unhandled error', {
    method: c.req.method,
    path: c.req.path,
    requestId: c.var.requestId,
    ...errorFields(err),
  })
  return failure(c, 500, 'errors.server')
}

/** With and without the slash: axios' baseURL plus post('/') sends it, and resellers type it. */
const V2_PATHS = [E.reseller.path, `${E.reseller.path}/`]

/**
 * POST /api/v2 (and /api/v2/): the SMM panel API ("API v2"). Form, urlencoded or JSON; `key`
 * is the account's API token, which works only from an address on its whitelist and within its
 * per-minute limit; `action` is services, add, status, balance, refill, refill_status or
 * cancel. A GET is refused in the same shape: the key does not belong in an address.
 * docs/api.md, "Reseller API (v2)".
 */
export const resellerRoutes = new Hono<AppEnv>()
  .on(E.resellerGet.method, V2_PATHS, (c) => failure(c, 405, 'v2.post_only'))
  .on(
    E.reseller.method,
    V2_PATHS,
    bodyLimit({
      maxSize: 64 * 1024,
      onError: (c) => failure(c as Context<AppEnv>, 413, 'errors.payload_too_large'),
    }),
    async (c) => {
      try {
        const fields = await readFields(c)
        const key = text(fields.key) ?? ''
        if (!isApiToken(key)) return failure(c, 401, 'auth.api_token.invalid')
        const check = await checkApiToken(c, key)
        if (!check.ok) {
          refusalHeaders(c, check)
          return failure(c, check.status, check.id, check.values)
        }
        const { user } = check
        const { db, config, locale } = c.var
        const action = v.safeParse(V2ActionSchema, text(fields.action)?.toLowerCase())
        if (!action.success) return failure(c, 400, 'v2.action.invalid')

        switch (action.output) {
          case 'services':
            return c.json(await listServices(db, user, { locale, lbpRate: config.lbpRate }))
          case 'add': {
            const ctx: CheckoutContext = {
              db,
              provider: c.var.provider,
              lbpRate: config.lbpRate,
              wire: { locale, timeZone: config.storeTimeZone },
              now: c.var.clock.now(),
              logger: c.var.logger,
              stock: stockOptions(config),
            }
            const order = await addOrder(ctx, user, {
              fields,
              service: text(fields.service) ?? '',
              link: text(fields.link),
              quantity: text(fields.quantity),
              idempotencyKey: c.req.header('idempotency-key'),
            })
            const reply: Wire<typeof V2AddReplySchema> = { order }
            return c.json(reply)
          }
          case 'status': {
            const unknown = t(locale, 'v2.order.invalid')
            const list = text(fields.orders)
            if (list) return c.json(await manyOrderStatuses(db, user.id, list, unknown))
            const one = await oneOrderStatus(db, user.id, text(fields.order) ?? '')
            return one ? c.json(one) : failure(c, 404, 'v2.order.invalid')
          }
          // No service allows a refill or a cancel: each order is refused, in the panels' shapes.
          case 'refill':
          case 'cancel': {
            const refusal = {
              unknown: t(locale, 'v2.order.invalid'),
              refused: t(locale, `v2.${action.output}.unavailable`),
            }
            const list = text(fields.orders)
            if (action.output === 'refill' && !list) {
              const [one] = await refusedOrders(db, user.id, text(fields.order) ?? '', refusal)
              const reply: V2Error = { error: one?.error ?? refusal.unknown }
              return c.json(reply)
            }
            const refused = await refusedOrders(
              db,
              user.id,
              list ?? text(fields.order) ?? '',
              refusal,
            )
            if (action.output === 'refill') {
              const reply: Wire<typeof V2RefillManyReplySchema> = refused.map(
                ({ order, error }) => ({
                  order,
                  refill: { error },
                }),
              )
              return c.json(reply)
            }
            const reply: Wire<typeof V2CancelReplySchema> = refused.map(({ order, error }) => ({
              order,
              cancel: { error },
            }))
            return c.json(reply)
          }
          case 'refill_status': {
            const list = text(fields.refills)
            if (!list) return failure(c, 404, 'v2.refill.invalid')
            const error = t(locale, 'v2.refill.invalid')
            const reply: Wire<typeof V2RefillStatusManyReplySchema> = refillIds(list).map(
              (refill) => ({ refill, status: { error } }),
            )
            return c.json(reply)
          }
          case 'balance': {
            const reply: Wire<typeof V2BalanceReplySchema> = {
              balance: microsText(user.balance),
              currency: user.currency,
            }
            return c.json(reply)
          }
        }
      } catch (err) {
        return failed(c, err)
      }
    },
  )
