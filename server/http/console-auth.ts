import type { Context } from 'hono'
import { deleteCookie, getCookie, setCookie } from 'hono/cookie'
import { createMiddleware } from 'hono/factory'
import type { OperatorRole } from '../../src/contract/console'
import type { OperatorRow } from '../db/schema'
import { t } from '../i18n'
import { auditOrigin } from '../services/audit'
import { findOperatorSession } from '../services/operators'
import { clientAddressKey } from './client-ip'
import type { AppEnv, AppVariables } from './env'

/*
 * The console's sessions (docs/api.md, Console): an HttpOnly, SameSite=Strict cookie sent only
 * to /api/admin, never a bearer token. Customers' tokens and API tokens are refused (403) on
 * every console call, and the storefront's calls never read this cookie.
 */

export const CONSOLE_COOKIE = 'console_session'
const COOKIE_PATH = '/api/admin'

export type ConsoleEnv = {
  Variables: AppVariables & { operator: OperatorRow; consoleSessionId: number }
}

export function keepConsoleSession<E extends AppEnv>(c: Context<E>, token: string) {
  setCookie(c, CONSOLE_COOKIE, token, {
    path: COOKIE_PATH,
    httpOnly: true,
    sameSite: 'Strict',
    secure: c.var.config.nodeEnv === 'production',
  })
}

export const forgetConsoleSession = <E extends AppEnv>(c: Context<E>) =>
  deleteCookie(c, CONSOLE_COOKIE, { path: COOKIE_PATH })

/** A customer's token or an API token: the console is not theirs (403, whatever the token). */
export const noBearer = createMiddleware<AppEnv>(async (c, next) => {
  if (c.req.header('authorization') !== undefined)
    return c.json({ message: t(c.var.locale, 'console.forbidden') }, 403)
  await next()
})

/** A live console session, and the role when one is named (an owner may do what an operator may). */
export function requireOperator(role?: OperatorRole) {
  return createMiddleware<ConsoleEnv>(async (c, next) => {
    if (c.req.header('authorization') !== undefined)
      return c.json({ message: t(c.var.locale, 'console.forbidden') }, 403)
    const token = getCookie(c, CONSOLE_COOKIE)
    const found = token ? await findOperatorSession(c.var.db, token, c.var.clock.now()) : undefined
    if (!found) return c.json({ message: t(c.var.locale, 'console.unauthenticated') }, 401)
    if (role === 'owner' && found.operator.role !== 'owner')
      return c.json({ message: t(c.var.locale, 'console.owner_only') }, 403)
    c.set('operator', found.operator)
    c.set('consoleSessionId', found.sessionId)
    // What the call audits says from where (services/audit.ts).
    const address = clientAddressKey(c, c.var.config.trustProxy)
    await auditOrigin.run({ address }, next)
  })
}
