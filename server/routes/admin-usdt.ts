import { Hono } from 'hono'
import { UsdtListQuerySchema } from '../../src/contract/console-usdt'
import { ENDPOINTS as E, type Reply } from '../../src/contract/endpoints'
import { microsText } from '../../src/domain/money'
import type { FieldMessages } from '../core/errors'
import { ApiError, parseFields, TooManyRequestsError } from '../core/errors'
import { idParam } from '../core/paging'
import type { UsdtRequestRow } from '../db/schema-wallet'
import { formBodyLimit, validForm } from '../http/body'
import { requireOperator } from '../http/console-auth'
import type { AppEnv } from '../http/env'
import { sameOriginOnly } from '../http/same-origin'
import { t } from '../i18n'
import { minutesUntil } from '../services/codes'
import { alertCounts, saveOperatorPushToken } from '../services/operator-alerts'
import { consoleActor } from '../services/operators'
import { hitRateLimit } from '../services/rate-limit'
import { confirmByHand } from '../services/usdt'
import { listUsdtRequests, stateOf, unmatchedTransfers } from '../services/usdt-lists'

/*
 * The console's USDT screen and the operators' alerts (docs/api.md, Console: USDT, Alerts).
 * A confirmation goes through the service `payments:confirm` calls: the hash in its network's
 * one spelling, each transaction credited once, whoever confirms at the same moment.
 */

const LIST_LIMIT = 100
const CONFIRM_FIELDS: Record<string, FieldMessages> = {
  tx_hash: { label: 'field.tx_hash', invalid: 'usdt.bad_hash' },
}
const STATUS_FIELDS: Record<string, FieldMessages> = { status: { label: 'field.status' } }
/** Confirmations per operator per 15 minutes: each one moves money. */
const CONFIRM_WINDOW_MS = 15 * 60_000
const CONFIRMS_PER_OPERATOR = 60

const operator = requireOperator()

const requestWire = (r: UsdtRequestRow & { username: string }, now: Date) => ({
  id: r.id,
  username: r.username,
  network: r.network,
  address: r.address,
  unique_amount: microsText(r.unique_amount),
  state: stateOf(r, now),
  tx_hash: r.tx_hash,
  expires_at: r.expires_at,
  paid_at: r.paid_at,
  created_at: r.created_at,
})

export const adminUsdtRoutes = new Hono<AppEnv>()
  .get(E.consoleUsdt.path, operator, async (c) => {
    const { status } = parseFields(UsdtListQuerySchema, c.req.query(), STATUS_FIELDS)
    const now = c.var.clock.now()
    const rows = await listUsdtRequests(c.var.db, { state: status }, { now, limit: LIST_LIMIT })
    const reply: Reply<'consoleUsdt'> = { data: rows.map((r) => requestWire(r, now)) }
    return c.json(reply)
  })
  .get(E.consoleUnmatched.path, operator, async (c) => {
    const now = c.var.clock.now()
    const rows = await unmatchedTransfers(c.var.db, { now, limit: LIST_LIMIT })
    const reply: Reply<'consoleUnmatched'> = {
      data: rows.map((r) => ({
        id: r.id,
        network: r.network,
        tx_hash: r.tx_hash,
        from_address: r.from_address,
        amount: microsText(r.amount),
        outcome: r.outcome,
        request_id: r.request_id,
        block_time: r.block_time,
        candidates: r.candidates.map((q) => requestWire(q, now)),
      })),
    }
    return c.json(reply)
  })
  .post(
    E.consoleConfirmUsdt.path,
    operator,
    sameOriginOnly,
    formBodyLimit(),
    validForm(E.consoleConfirmUsdt.body, CONFIRM_FIELDS),
    async (c) => {
      const id = idParam(c.req.param('id'))
      if (id === undefined) throw new ApiError(404, 'usdt.not_found')
      const now = c.var.clock.now()
      const limited = await hitRateLimit(c.var.db, {
        key: `console-usdt-confirm:${c.var.operator.id}`,
        limit: CONFIRMS_PER_OPERATOR,
        windowMs: CONFIRM_WINDOW_MS,
        now,
      })
      if (!limited.allowed)
        throw new TooManyRequestsError('errors.rate_limited', limited.retryAfterMs / 1000, {
          minutes: minutesUntil(now.getTime() + limited.retryAfterMs, now.getTime()),
        })
      const request = await confirmByHand(c.var.db, id, c.req.valid('form').tx_hash, {
        rate: c.var.config.lbpRate,
        now,
        actor: consoleActor(c.var.operator),
      })
      const user = await c.var.db
        .selectFrom('users')
        .select('username')
        .where('id', '=', request.user_id)
        .executeTakeFirstOrThrow()
      const reply: Reply<'consoleConfirmUsdt'> = {
        message: t(c.var.locale, 'console.usdt_confirmed', {
          id: request.id,
          amount: microsText(request.unique_amount),
        }),
        data: requestWire({ ...request, username: user.username }, now),
      }
      return c.json(reply)
    },
  )
  .get(E.consoleAlerts.path, operator, async (c) => {
    const reply: Reply<'consoleAlerts'> = { data: await alertCounts(c.var.db) }
    return c.json(reply)
  })
  .post(
    E.consolePushToken.path,
    operator,
    sameOriginOnly,
    formBodyLimit(),
    validForm(E.consolePushToken.body, { fcm_token: { label: 'field.fcm_token' } }),
    async (c) => {
      await saveOperatorPushToken(c.var.db, c.var.consoleSessionId, {
        token: c.req.valid('form').fcm_token,
        locale: c.var.locale,
        now: c.var.clock.now(),
      })
      const reply: Reply<'consolePushToken'> = { message: t(c.var.locale, 'console.push_saved') }
      return c.json(reply)
    },
  )
