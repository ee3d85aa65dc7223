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
import {
  V2AddSchema,
  V2OrdersRequestSchema,
  V2RefillStatusRequestSchema,
} from '../../src/contract/reseller'
import { microsText } from '../../src/domain/money'
import { isDatabaseUnavailable } from '../db'
import { checkApiToken, refusalHeaders } from '../http/api-token'
import { validForm } from '../http/body'
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

/** What validForm gives the call (E.reseller.body): its key and action, and its fields. */
type V2Input = { out: { form: v.InferOutput<typeof E.reseller.body> } }

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
  // Every refusal of the v2 calls, their body's included, is said the v2 way.
  .onError((err, c) => failed(c, err))
  .on(E.resellerGet.method, V2_PATHS, (c) => failure(c, 405, 'v2.post_only'))
  .on(
    E.reseller.method,
    V2_PATHS,
    bodyLimit({
      maxSize: 64 * 1024,
      onError: (c) => failure(c as Context<AppEnv>, 413, 'errors.payload_too_large'),
    }),
    // Nothing of the call is refused for its shape: what is missing or wrong is said below.
    validForm(E.reseller.body, {}),
    async (c: Context<AppEnv, string, V2Input>) => {
      const { key, action, fields } = c.req.valid('form')
      if (key === undefined) return failure(c, 401, 'auth.api_token.invalid')
      const check = await checkApiToken(c, key)
      if (!check.ok) {
        refusalHeaders(c, check)
        return failure(c, check.status, check.id, check.values)
      }
      const { user } = check
      const { db, config, locale } = c.var
      if (action === undefined) return failure(c, 400, 'v2.action.invalid')

      switch (action) {
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
            ...v.parse(V2AddSchema, fields),
            fields,
            idempotencyKey: c.req.header('idempotency-key'),
          })
          const reply: Wire<typeof V2AddReplySchema> = { order }
          return c.json(reply)
        }
        case 'status': {
          const unknown = t(locale, 'v2.order.invalid')
          const { order, orders } = v.parse(V2OrdersRequestSchema, fields)
          if (orders) return c.json(await manyOrderStatuses(db, user.id, orders, unknown))
          const one = await oneOrderStatus(db, user.id, order ?? '')
          return one ? c.json(one) : failure(c, 404, 'v2.order.invalid')
        }
        // No service allows a refill or a cancel: each order is refused, in the panels' shapes.
        case 'refill':
        case 'cancel': {
          const refusal = {
            unknown: t(locale, 'v2.order.invalid'),
            refused: t(locale, `v2.${action}.unavailable`),
          }
          const { order, orders } = v.parse(V2OrdersRequestSchema, fields)
          if (action === 'refill' && !orders) {
            const [one] = await refusedOrders(db, user.id, order ?? '', refusal)
            const reply: V2Error = { error: one?.error ?? refusal.unknown }
            return c.json(reply)
          }
          const refused = await refusedOrders(db, user.id, orders ?? order ?? '', refusal)
          if (action === 'refill') {
            const reply: Wire<typeof V2RefillManyReplySchema> = refused.map(({ order, error }) => ({
              order,
              refill: { error },
            }))
            return c.json(reply)
          }
          const reply: Wire<typeof V2CancelReplySchema> = refused.map(({ order, error }) => ({
            order,
            cancel: { error },
          }))
          return c.json(reply)
        }
        case 'refill_status': {
          const { refills } = v.parse(V2RefillStatusRequestSchema, fields)
          if (!refills) return failure(c, 404, 'v2.refill.invalid')
          const error = t(locale, 'v2.refill.invalid')
          const reply: Wire<typeof V2RefillStatusManyReplySchema> = refillIds(refills).map(
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
    },
  )
