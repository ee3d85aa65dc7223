import type { Context } from 'hono'
import { createMiddleware } from 'hono/factory'
import { isApiToken } from '../../src/contract/token'
import { t } from '../i18n'
import { findSession } from '../services/sessions'
import { checkApiToken, refusalHeaders, type ApiTokenRefusal } from './api-token'
import type { AppEnv, AuthEnv, CallerEnv, MaybeAuthEnv } from './env'

/**
 * `Authorization: Bearer <token>`: a session token (43 base64url characters) or an API token
 * (`4412|` and 40 letters or digits); longer is not ours.
 */
export function bearerToken(header: string | undefined): string | undefined {
  const match = /^Bearer\s+([A-Za-z0-9_|-]{16,200})\s*$/i.exec(header ?? '')
  return match?.[1]
}

const sessionOf = <E extends AppEnv>(c: Context<E>, token: string) => {
  // c.get rather than c.var: each read of c.var copies every variable (docs/performance.md).
  return findSession(c.get('db'), token, c.get('clock').now(), c.get('config').sessions)
}

function unauthenticated<E extends AppEnv>(c: Context<E>) {
  c.header('WWW-Authenticate', 'Bearer')
  return c.json({ message: t(c.var.locale, 'auth.unauthenticated') }, 401)
}

function refused<E extends AppEnv>(c: Context<E>, refusal: ApiTokenRefusal) {
  refusalHeaders(c, refusal)
  return c.json({ message: t(c.var.locale, refusal.id, refusal.values) }, refusal.status)
}

/** What an API token may not do: everything behind requireUser, however it is whitelisted. */
const accountChange: ApiTokenRefusal = { ok: false, status: 403, id: 'auth.api_token.forbidden' }

/**
 * Resolves the bearer token to its live session and user, or answers 401: unknown, revoked or
 * expired (SESSION_IDLE_DAYS, SESSION_MAX_DAYS) token, or an account an operator disabled.
 * Sessions only: what an API token may do is opt-in (requireUserOrApiToken), so the account's
 * own settings (password, token, whitelist, language, currency, sign-out) answer it 403.
 */
export const requireUser = createMiddleware<AuthEnv>(async (c, next) => {
  const token = bearerToken(c.req.header('authorization'))
  if (token && isApiToken(token)) {
    const check = await checkApiToken(c, token)
    return refused(c, check.ok ? accountChange : check)
  }
  const found = token ? await sessionOf(c, token) : undefined
  if (!found) return unauthenticated(c)
  c.set('user', found.user)
  c.set('sessionId', found.sessionId)
  c.set('auth', 'session')
  await next()
})

/**
 * Like requireUser, and an API token too when it comes from an address on its whitelist: for
 * the calls a reseller's server makes (reading the profile and orders, placing orders).
 */
export const requireUserOrApiToken = createMiddleware<CallerEnv>(async (c, next) => {
  const token = bearerToken(c.req.header('authorization'))
  if (token && isApiToken(token)) {
    const check = await checkApiToken(c, token)
    if (!check.ok) return refused(c, check)
    c.set('user', check.user)
    c.set('auth', 'api-token')
    return next()
  }
  const found = token ? await sessionOf(c, token) : undefined
  if (!found) return unauthenticated(c)
  c.set('user', found.user)
  c.set('auth', 'session')
  c.set('contentVersion', found.contentVersion)
  await next()
})

/**
 * For calls that work signed out too (the player search): the user when the bearer token is
 * a live session or a whitelisted API token; otherwise the call goes on as anonymous rather
 * than answering 401, so a stale token does not break a public call. A known API token from
 * an address off its whitelist is still refused (403), as everywhere.
 */
export const optionalUser = createMiddleware<MaybeAuthEnv>(async (c, next) => {
  const token = bearerToken(c.req.header('authorization'))
  if (token && isApiToken(token)) {
    const check = await checkApiToken(c, token)
    if (check.ok) {
      c.set('user', check.user)
      c.set('auth', 'api-token')
    } else if (check.status !== 401) return refused(c, check)
    return next()
  }
  const found = token ? await sessionOf(c, token) : undefined
  if (found) {
    c.set('user', found.user)
    c.set('sessionId', found.sessionId)
    c.set('auth', 'session')
  }
  await next()
})
