import { Hono, type Context } from 'hono'
import { ENDPOINTS as E, type Reply } from '../../src/contract/endpoints'
import type { FieldMessages } from '../core/errors'
import { ApiError, TooManyRequestsError } from '../core/errors'
import { idParam } from '../core/paging'
import { formBodyLimit, validForm } from '../http/body'
import { clientAddressKey } from '../http/client-ip'
import {
  forgetConsoleSession,
  keepConsoleSession,
  noBearer,
  requireOperator,
  type ConsoleEnv,
} from '../http/console-auth'
import type { AppEnv } from '../http/env'
import { sameOriginOnly } from '../http/same-origin'
import { adminOrderRoutes } from './admin-orders'
import { t } from '../i18n'
import { recordAudit } from '../services/audit'
import { approveCharge, findCharge, rejectCharge } from '../services/charging'
import { minutesUntil } from '../services/codes'
import { todayCounts, topUpQueue } from '../services/console'
import {
  consoleActor,
  consoleSignIn,
  listOperators,
  revokeOperatorSession,
  revokeOperatorSessions,
} from '../services/operators'
import { hitRateLimit } from '../services/rate-limit'
import { readPhoto } from '../services/receipts'
import { usernameKey } from '../core/username-key'
import { adminCustomerRoutes } from './admin-customers'
import { adminSettingsRoutes } from './admin-settings'
import { adminUsdtRoutes } from './admin-usdt'
import { adminCatalogueRoutes } from './admin-catalogue'

/*
 * The operator console's calls (docs/api.md, Console). Every write is same-origin only (the
 * session is a cookie), audited in its own transaction, and goes through the service the
 * CLI's command calls.
 */

const SIGN_IN_FIELDS: Record<string, FieldMessages> = {
  username: { label: 'field.username' },
  password: { label: 'field.password' },
  code: { label: 'field.second_factor', invalid: 'validation.second_factor' },
}
const REJECT_FIELDS: Record<string, FieldMessages> = { reason: { label: 'field.reason' } }

/** Sign-in tries per 15 minutes: per address, and per account whatever the address. */
const SIGN_IN_WINDOW_MS = 15 * 60_000
const SIGN_IN_PER_ADDRESS = 20
const SIGN_IN_PER_ACCOUNT = 10

async function limitSignIn(c: Context<AppEnv>, address: string | null, username: string) {
  const now = c.var.clock.now()
  const limits: [string, number][] = [
    [`console-sign-in:user:${usernameKey(username)}`, SIGN_IN_PER_ACCOUNT],
  ]
  // An unknown address (no socket) is not counted as one: an address nobody shares.
  if (address !== null) limits.push([`console-sign-in:ip:${address}`, SIGN_IN_PER_ADDRESS])
  for (const [key, limit] of limits) {
    const result = await hitRateLimit(c.var.db, { key, limit, windowMs: SIGN_IN_WINDOW_MS, now })
    if (!result.allowed)
      throw new TooManyRequestsError('errors.rate_limited', result.retryAfterMs / 1000, {
        minutes: minutesUntil(now.getTime() + result.retryAfterMs, now.getTime()),
      })
  }
}

const operatorWire = (o: { id: number; username: string; role: 'owner' | 'operator' }) => ({
  id: o.id,
  username: o.username,
  role: o.role,
})

/** The top-up the path names, or 404. */
async function topUpOf(c: Context<ConsoleEnv>) {
  const id = idParam(c.req.param('id'))
  const charge = id === undefined ? undefined : await findCharge(c.var.db, undefined, id)
  if (!charge) throw new ApiError(404, 'charging.not_found')
  return charge
}

const limit = formBodyLimit()
const operator = requireOperator()

export const adminRoutes = new Hono<AppEnv>()
  .route('/', adminOrderRoutes)
  .post(
    E.consoleSignIn.path,
    noBearer,
    sameOriginOnly,
    limit,
    validForm(E.consoleSignIn.body, SIGN_IN_FIELDS),
    async (c) => {
      const input = c.req.valid('form')
      const address = clientAddressKey(c, c.var.config.trustProxy)
      await limitSignIn(c, address, input.username)
      const { operator, token } = await consoleSignIn(
        c.var.db,
        { passwords: c.var.passwords, tokenSecret: c.var.config.tokenSecret },
        input,
        { address: address ?? '', now: c.var.clock.now() },
      )
      keepConsoleSession(c, token)
      const reply: Reply<'consoleSignIn'> = { data: operatorWire(operator) }
      return c.json(reply)
    },
  )
  .post(E.consoleSignOut.path, operator, sameOriginOnly, async (c) => {
    const now = c.var.clock.now()
    await revokeOperatorSession(c.var.db, c.var.consoleSessionId, now)
    await recordAudit(c.var.db, {
      actor: consoleActor(c.var.operator),
      action: 'console.sign_out',
      now,
    })
    forgetConsoleSession(c)
    const reply: Reply<'consoleSignOut'> = { message: t(c.var.locale, 'auth.signed_out') }
    return c.json(reply)
  })
  .post(E.consoleSignOutEverywhere.path, operator, sameOriginOnly, async (c) => {
    const now = c.var.clock.now()
    await revokeOperatorSessions(c.var.db, c.var.operator.id, now)
    await recordAudit(c.var.db, {
      actor: consoleActor(c.var.operator),
      action: 'console.sign_out_everywhere',
      now,
    })
    forgetConsoleSession(c)
    const reply: Reply<'consoleSignOutEverywhere'> = {
      message: t(c.var.locale, 'console.signed_out_everywhere'),
    }
    return c.json(reply)
  })
  .get(E.consoleMe.path, operator, (c) => {
    const reply: Reply<'consoleMe'> = { data: operatorWire(c.var.operator) }
    return c.json(reply)
  })
  .get(E.consoleOperators.path, requireOperator('owner'), async (c) => {
    const rows = await listOperators(c.var.db)
    const reply: Reply<'consoleOperators'> = {
      data: rows.map((o) => ({
        ...operatorWire(o),
        second_factor: o.totp_sealed !== null,
        disabled_at: o.disabled_at,
        created_at: o.created_at,
      })),
    }
    return c.json(reply)
  })
  .get(E.consoleToday.path, operator, async (c) => {
    const { config } = c.var
    const reply: Reply<'consoleToday'> = {
      data: await todayCounts(c.var.db, {
        now: c.var.clock.now(),
        timeZone: config.storeTimeZone,
        defaultLowAt: config.stockLowAt,
      }),
    }
    return c.json(reply)
  })
  .get(E.consoleTopUps.path, operator, async (c) => {
    const reply: Reply<'consoleTopUps'> = {
      data: await topUpQueue(c.var.db, { timeZone: c.var.config.storeTimeZone }),
    }
    return c.json(reply)
  })
  .get(E.consoleReceipt.path, operator, async (c) => {
    const charge = await topUpOf(c)
    if (!charge.receipt_file) throw new ApiError(404, 'charging.not_found')
    const bytes = await readPhoto(c.var.config.receipts.dir, charge.receipt_file)
    c.header('Content-Type', 'image/jpeg')
    c.header('Cache-Control', 'private, no-store')
    return c.body(new Uint8Array(bytes))
  })
  .post(E.consoleApprove.path, operator, sameOriginOnly, async (c) => {
    const charge = await topUpOf(c)
    const result = await approveCharge(c.var.db, charge.id, {
      rate: c.var.config.lbpRate,
      now: c.var.clock.now(),
      actor: consoleActor(c.var.operator),
    })
    if (!result.changed) throw new ApiError(409, 'console.top_up_decided')
    const reply: Reply<'consoleApprove'> = {
      message: t(c.var.locale, 'console.top_up_approved', { id: charge.id }),
      data: { id: charge.id, status: result.charge.status },
    }
    return c.json(reply)
  })
  .post(
    E.consoleReject.path,
    operator,
    sameOriginOnly,
    limit,
    validForm(E.consoleReject.body, REJECT_FIELDS),
    async (c) => {
      const charge = await topUpOf(c)
      const result = await rejectCharge(c.var.db, charge.id, {
        reason: c.req.valid('form').reason,
        now: c.var.clock.now(),
        actor: consoleActor(c.var.operator),
      })
      if (!result.changed) throw new ApiError(409, 'console.top_up_decided')
      const reply: Reply<'consoleReject'> = {
        message: t(c.var.locale, 'console.top_up_rejected', { id: charge.id }),
        data: { id: charge.id, status: result.charge.status },
      }
      return c.json(reply)
    },
  )
  .route('/', adminCustomerRoutes)
  .route('/', adminSettingsRoutes)
  .route('/', adminUsdtRoutes)
  .route('/', adminCatalogueRoutes)
