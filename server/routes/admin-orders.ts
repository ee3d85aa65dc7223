import { Hono, type Context } from 'hono'
import { CODE_MAX_LENGTH, CODES_MAX } from '../../src/contract/constants'
import { ENDPOINTS as E, type Reply } from '../../src/contract/endpoints'
import { ApiError, TooManyRequestsError, type FieldMessages } from '../core/errors'
import { idParam, mapPage, pageRequest } from '../core/paging'
import { formBodyLimit, validForm } from '../http/body'
import type { OrderRow } from '../db/schema'
import { requireOperator, type ConsoleEnv } from '../http/console-auth'
import type { AppEnv } from '../http/env'
import { sameOriginOnly } from '../http/same-origin'
import { t } from '../i18n'
import { minutesUntil } from '../services/codes'
import { findOrders, orderDetail, orderLine, retryHandOver } from '../services/console-orders'
import { consoleActor } from '../services/operators'
import { cancelOrder, completeOrder } from '../services/order-status'
import { hitRateLimit } from '../services/rate-limit'

/*
 * The console's Orders screen (docs/api.md, Console): search, one order, and complete, cancel
 * or retry it, each through the service its CLI command calls (cli/orders.ts).
 */

const COMPLETE_FIELDS: Record<string, FieldMessages> = {
  codes: {
    label: 'field.codes',
    invalid: 'validation.codes',
    values: { max: CODES_MAX, length: CODE_MAX_LENGTH },
  },
  note: { label: 'field.note' },
  expiry: { label: 'field.expiry', invalid: 'validation.day' },
}
const CANCEL_FIELDS: Record<string, FieldMessages> = { reason: { label: 'field.reason' } }

/** Orders per page of the console's list. */
const PER_PAGE = 20
/** An operator's actions on orders (they move money and reach providers) per 10 minutes. */
const ACTIONS_PER_WINDOW = 120
const ACTION_WINDOW_MS = 10 * 60_000

async function limitActions(c: Context<ConsoleEnv>) {
  const now = c.var.clock.now()
  const result = await hitRateLimit(c.var.db, {
    key: `console-orders:${c.var.operator.id}`,
    limit: ACTIONS_PER_WINDOW,
    windowMs: ACTION_WINDOW_MS,
    now,
  })
  if (!result.allowed)
    throw new TooManyRequestsError('errors.rate_limited', result.retryAfterMs / 1000, {
      minutes: minutesUntil(now.getTime() + result.retryAfterMs, now.getTime()),
    })
}

/** The order the path names, as a number, or 404. */
function orderId(c: Context<ConsoleEnv>): number {
  const id = idParam(c.req.param('id'))
  if (id === undefined) throw new ApiError(404, 'order.not_found')
  return id
}

/** An action's reply: what it did, or why nothing changed (404 no such order, 409 not open). */
function outcome(
  c: Context<ConsoleEnv>,
  id: number,
  result: { changed: boolean; order: Pick<OrderRow, 'status'> | undefined },
  done: 'console.order_completed' | 'console.order_canceled' | 'console.order_retried',
  closed: 'console.order_decided' | 'console.order_no_retry',
): Reply<'consoleCompleteOrder'> {
  if (!result.order) throw new ApiError(404, 'order.not_found')
  if (!result.changed) throw new ApiError(409, closed)
  return { message: t(c.var.locale, done, { id }), data: { id, status: result.order.status } }
}

const operator = requireOperator()
const limit = formBodyLimit()

export const adminOrderRoutes = new Hono<AppEnv>()
  .get(E.consoleOrders.path, operator, async (c) => {
    const query = c.req.query()
    const { locale } = c.var
    const timeZone = c.var.config.storeTimeZone
    const page = await findOrders(c.var.db, query, {
      timeZone,
      page: pageRequest(query, { perPage: PER_PAGE, maxPerPage: 100 }),
    })
    const reply: Reply<'consoleOrders'> = mapPage(page, (o) => orderLine(o, { locale, timeZone }))
    return c.json(reply)
  })
  .get(E.consoleOrder.path, operator, async (c) => {
    const order = await orderDetail(c.var.db, orderId(c), {
      locale: c.var.locale,
      timeZone: c.var.config.storeTimeZone,
      tokenSecret: c.var.config.tokenSecret,
    })
    if (!order) throw new ApiError(404, 'order.not_found')
    const reply: Reply<'consoleOrder'> = { data: order }
    return c.json(reply)
  })
  .post(
    E.consoleCompleteOrder.path,
    operator,
    sameOriginOnly,
    limit,
    validForm(E.consoleCompleteOrder.body, COMPLETE_FIELDS),
    async (c) => {
      const id = orderId(c)
      await limitActions(c)
      const { codes, note, expiry } = c.req.valid('form')
      const result = await completeOrder(c.var.db, id, {
        codes,
        note: note || null,
        expiryDate: expiry || null,
        now: c.var.clock.now(),
        actor: consoleActor(c.var.operator),
      })
      return c.json(outcome(c, id, result, 'console.order_completed', 'console.order_decided'))
    },
  )
  .post(
    E.consoleCancelOrder.path,
    operator,
    sameOriginOnly,
    limit,
    validForm(E.consoleCancelOrder.body, CANCEL_FIELDS),
    async (c) => {
      const id = orderId(c)
      await limitActions(c)
      const result = await cancelOrder(c.var.db, id, {
        reason: c.req.valid('form').reason,
        lbpRate: c.var.config.lbpRate,
        now: c.var.clock.now(),
        actor: consoleActor(c.var.operator),
      })
      return c.json(outcome(c, id, result, 'console.order_canceled', 'console.order_decided'))
    },
  )
  .post(E.consoleRetryOrder.path, operator, sameOriginOnly, async (c) => {
    const id = orderId(c)
    await limitActions(c)
    const result = await retryHandOver(c.var.db, c.var.provider, id, {
      now: c.var.clock.now(),
      actor: consoleActor(c.var.operator),
      logger: c.var.logger,
    })
    return c.json(outcome(c, id, result, 'console.order_retried', 'console.order_no_retry'))
  })
