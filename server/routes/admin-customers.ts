import { Hono, type Context } from 'hono'
import { ENDPOINTS as E, type Reply } from '../../src/contract/endpoints'
import { fromMicros, toMicros } from '../../src/domain/money'
import type { UserRow } from '../db/schema'
import { ApiError, TooManyRequestsError, type FieldMessages } from '../core/errors'
import { idParam, pageRequest } from '../core/paging'
import { formBodyLimit, validForm } from '../http/body'
import { requireOperator, type ConsoleEnv } from '../http/console-auth'
import type { AppEnv } from '../http/env'
import { sameOriginOnly } from '../http/same-origin'
import { t } from '../i18n'
import { auditChoices, listAudit } from '../services/audit'
import { minutesUntil } from '../services/codes'
import {
  disableAccount,
  enableAccount,
  liveSessionCount,
  revokeAccountSessions,
  searchCustomers,
  setAccountType,
} from '../services/customers'
import { localDateTime } from '../services/dates'
import { consoleActor } from '../services/operators'
import { listPaymentLogs } from '../services/payment-logs'
import { hitRateLimit } from '../services/rate-limit'
import { findUserByUsername } from '../services/users'
import { correctBalance, InsufficientBalanceError } from '../services/wallet-correction'

/*
 * The console's Customers and Audit screens (docs/api.md, Console). Each action runs the
 * service the CLI's command runs (users:disable, users:enable, sessions:revoke,
 * users:set-type, wallet:credit, wallet:debit, audit:list), which audits it in its own
 * transaction, from the address console-auth.ts records.
 */

const CORRECTION_FIELDS: Record<string, FieldMessages> = {
  direction: { label: 'field.direction' },
  amount: { label: 'field.value', invalid: 'validation.amount' },
  reason: { label: 'field.reason' },
}
const DISABLE_FIELDS: Record<string, FieldMessages> = { reason: { label: 'field.reason' } }
const TYPE_FIELDS: Record<string, FieldMessages> = { type: { label: 'field.account_type' } }

const CUSTOMERS_PER_PAGE = 20
const AUDIT_PER_PAGE = 25
/** Balance corrections per operator in 15 minutes: a slip of the thumb, not a stolen phone's spree. */
const CORRECTIONS_PER_WINDOW = 30
const CORRECTION_WINDOW_MS = 15 * 60_000

const customerWire = (u: UserRow) => ({
  id: u.id,
  username: u.username,
  phone_number: u.phone_number,
  email: u.email,
  type: u.type,
  currency: u.currency,
  balance: fromMicros(u.balance),
  disabled_at: u.disabled_at,
  created_at: u.created_at,
})

/** The customer the path names, or 404. */
async function customerOf(c: Context<ConsoleEnv>): Promise<UserRow> {
  const id = idParam(c.req.param('id'))
  const user =
    id === undefined
      ? undefined
      : await c.var.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst()
  if (!user) throw new ApiError(404, 'console.customer_not_found')
  return user
}

/** The account as its screen shows it, read after the change. */
async function detail(c: Context<ConsoleEnv>, id: number) {
  const user = await c.var.db
    .selectFrom('users')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirstOrThrow()
  return {
    ...customerWire(user),
    locale: user.locale,
    sessions: await liveSessionCount(c.var.db, id),
  }
}

async function limitCorrections(c: Context<ConsoleEnv>) {
  const now = c.var.clock.now()
  const result = await hitRateLimit(c.var.db, {
    key: `console-balance:${c.var.operator.id}`,
    limit: CORRECTIONS_PER_WINDOW,
    windowMs: CORRECTION_WINDOW_MS,
    now,
  })
  if (!result.allowed)
    throw new TooManyRequestsError('errors.rate_limited', result.retryAfterMs / 1000, {
      minutes: minutesUntil(now.getTime() + result.retryAfterMs, now.getTime()),
    })
}

const operation = (c: Context<ConsoleEnv>) => ({
  actor: consoleActor(c.var.operator),
  now: c.var.clock.now(),
})

const limit = formBodyLimit()
const operator = requireOperator()

export const adminCustomerRoutes = new Hono<AppEnv>()
  .get(E.consoleCustomers.path, operator, async (c) => {
    const page = await searchCustomers(
      c.var.db,
      (c.req.query('q') ?? '').slice(0, 100),
      pageRequest({ page: c.req.query('page') }, { perPage: CUSTOMERS_PER_PAGE }),
    )
    const reply: Reply<'consoleCustomers'> = { ...page, data: page.data.map(customerWire) }
    return c.json(reply)
  })
  .get(E.consoleCustomer.path, operator, async (c) => {
    const user = await customerOf(c)
    const reply: Reply<'consoleCustomer'> = { data: await detail(c, user.id) }
    return c.json(reply)
  })
  .get(E.consoleCustomerLedger.path, operator, async (c) => {
    const user = await customerOf(c)
    const reply: Reply<'consoleCustomerLedger'> = await listPaymentLogs(
      c.var.db,
      user,
      { page: c.req.query('page') },
      { timeZone: c.var.config.storeTimeZone, locale: c.var.locale },
    )
    return c.json(reply)
  })
  .post(
    E.consoleCorrectBalance.path,
    operator,
    sameOriginOnly,
    limit,
    validForm(E.consoleCorrectBalance.body, CORRECTION_FIELDS),
    async (c) => {
      const user = await customerOf(c)
      const input = c.req.valid('form')
      await limitCorrections(c)
      let result
      try {
        result = await correctBalance(c.var.db, user.id, {
          ...operation(c),
          direction: input.direction,
          amount: toMicros(input.amount),
          currency: user.currency,
          reason: input.reason,
          rate: c.var.config.lbpRate,
        })
      } catch (err) {
        if (err instanceof InsufficientBalanceError)
          throw new ApiError(409, 'console.balance_too_low', {
            username: user.username,
            balance: `${fromMicros(err.balance)} ${user.currency}`,
          })
        if (err instanceof RangeError) throw new ApiError(409, 'console.balance_too_large')
        throw err
      }
      const values = {
        username: user.username,
        amount: `${fromMicros(result.amount)} ${result.user.currency}`,
      }
      const reply: Reply<'consoleCorrectBalance'> = {
        message: t(
          c.var.locale,
          input.direction === 'credit' ? 'console.balance_credited' : 'console.balance_debited',
          values,
        ),
        data: await detail(c, user.id),
      }
      return c.json(reply)
    },
  )
  .post(
    E.consoleDisableCustomer.path,
    operator,
    sameOriginOnly,
    limit,
    validForm(E.consoleDisableCustomer.body, DISABLE_FIELDS),
    async (c) => {
      const user = await customerOf(c)
      const { sessions } = await disableAccount(c.var.db, user, {
        ...operation(c),
        reason: c.req.valid('form').reason,
      })
      const reply: Reply<'consoleDisableCustomer'> = {
        message: t(c.var.locale, 'console.customer_disabled', {
          username: user.username,
          sessions,
        }),
        data: await detail(c, user.id),
      }
      return c.json(reply)
    },
  )
  .post(E.consoleEnableCustomer.path, operator, sameOriginOnly, async (c) => {
    const user = await customerOf(c)
    await enableAccount(c.var.db, user, operation(c))
    const reply: Reply<'consoleEnableCustomer'> = {
      message: t(c.var.locale, 'console.customer_enabled', { username: user.username }),
      data: await detail(c, user.id),
    }
    return c.json(reply)
  })
  .post(E.consoleRevokeSessions.path, operator, sameOriginOnly, async (c) => {
    const user = await customerOf(c)
    const sessions = await revokeAccountSessions(c.var.db, user, operation(c))
    const reply: Reply<'consoleRevokeSessions'> = {
      message: t(c.var.locale, 'console.sessions_revoked', { username: user.username, sessions }),
      data: await detail(c, user.id),
    }
    return c.json(reply)
  })
  .post(
    E.consoleSetAccountType.path,
    operator,
    sameOriginOnly,
    limit,
    validForm(E.consoleSetAccountType.body, TYPE_FIELDS),
    async (c) => {
      const user = await customerOf(c)
      const { type } = c.req.valid('form')
      await setAccountType(c.var.db, user, type, operation(c))
      const reply: Reply<'consoleSetAccountType'> = {
        message: t(
          c.var.locale,
          type === 'COMPANY' ? 'console.now_company' : 'console.now_customer',
          { username: user.username },
        ),
        data: await detail(c, user.id),
      }
      return c.json(reply)
    },
  )
  .get(E.consoleAudit.path, operator, async (c) => {
    const q = c.req.query()
    // The subject by username; one nobody has finds nothing (not everything).
    const subject = q.subject?.trim()
    const userId = subject
      ? ((await findUserByUsername(c.var.db, subject.slice(0, 100)))?.id ?? 0)
      : undefined
    const timeZone = c.var.config.storeTimeZone
    const [page, choices] = await Promise.all([
      listAudit(
        c.var.db,
        {
          actor: q.operator?.trim() || undefined,
          action: q.action?.trim() || undefined,
          userId,
          start_date: q.start_date,
          end_date: q.end_date,
        },
        pageRequest({ page: q.page }, { perPage: AUDIT_PER_PAGE }),
        timeZone,
      ),
      auditChoices(c.var.db),
    ])
    const reply: Reply<'consoleAudit'> = {
      ...page,
      data: page.data.map((row) => ({ ...row, ...localDateTime(row.created_at, timeZone) })),
      ...choices,
    }
    return c.json(reply)
  })
