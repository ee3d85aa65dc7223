import { Hono, type Context } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import * as v from 'valibot'
import type { V2Error, V2AddReplySchema, V2BalanceReplySchema } from '../../src/contract/reseller'
import { V2ActionSchema } from '../../src/contract/reseller'
import { isApiToken } from '../../src/contract/token'
import { microsText } from '../../src/domain/money'
import { DatabaseBusyError } from '../db/sqlite'
import { checkApiToken, refusalHeaders } from '../http/api-token'
import { readFields } from '../http/body'
import type { AppEnv } from '../http/env'
import { ApiError, RetryLaterError } from '../core/errors'
import { ValidationError } from '../core/errors'
import { t, type MessageId } from '../i18n'
import { errorFields } from '../log'
import type { CheckoutContext } from '../services/orders'
import { addOrder, listServices, manyOrderStatuses, oneOrderStatus } from '../services/reseller'

type Wire<S extends v.GenericSchema> = v.InferInput<S>

/** The v2 API's failure shape: `{"error": ...}` in the request's language. */
function failure(
  c: Context<AppEnv>,
  status: ContentfulStatusCode,
  id: MessageId,
  values?: Record<string, unknown>,
) {
  const reply: V2Error = { error: t(c.var.locale, id, values) }
  return c.json(reply, status)
}

const text = (value: unknown) => (typeof value === 'string' ? value.trim() : undefined)

/** Expected failures of the services, said the v2 way; a bug stays a logged 500. */
function failed(c: Context<AppEnv>, err: unknown) {
  if (err instanceof ValidationError) {
    const reply: V2Error = { error: err.toReply(c.var.locale).message }
    return c.json(reply, 422)
  }
  if (err instanceof ApiError) {
    if (err instanceof RetryLaterError)
      c.header('Retry-After', String(Math.max(1, Math.ceil(err.retryAfterSeconds))))
    return failure(c, err.status, err.messageId, err.values)
  }
  if (err instanceof DatabaseBusyError) {
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

/**
 * POST /api/v2: the SMM panel API ("API v2"). Form, urlencoded or JSON; `key` is the account's
 * API token, which works only from an address on its whitelist and within its per-minute
 * limit; `action` is services, add, status or balance. docs/api.md, "Reseller API (v2)".
 */
export const resellerRoutes = new Hono<AppEnv>().post(
  '/',
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
