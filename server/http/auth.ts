import { createMiddleware } from 'hono/factory'
import { t } from '../i18n'
import { findSession } from '../services/sessions'
import type { AuthEnv, MaybeAuthEnv } from './env'

/** `Authorization: Bearer <token>`; tokens are 43 base64url characters, longer is not ours. */
export function bearerToken(header: string | undefined): string | undefined {
  const match = /^Bearer\s+([A-Za-z0-9_-]{16,200})\s*$/i.exec(header ?? '')
  return match?.[1]
}

/**
 * Resolves the bearer token to its live session and user, or answers 401: unknown, revoked or
 * expired (SESSION_IDLE_DAYS, SESSION_MAX_DAYS) token, or an account an operator disabled.
 */
export const requireUser = createMiddleware<AuthEnv>(async (c, next) => {
  const token = bearerToken(c.req.header('authorization'))
  const found = token
    ? await findSession(c.var.db, token, c.var.clock.now(), c.var.config.sessions)
    : undefined
  if (!found) {
    c.header('WWW-Authenticate', 'Bearer')
    return c.json({ message: t(c.var.locale, 'auth.unauthenticated') }, 401)
  }
  c.set('user', found.user)
  c.set('sessionId', found.sessionId)
  await next()
})

/**
 * For calls that work signed out too (the player search): the user when the bearer token is
 * a live session; otherwise the call goes on as anonymous rather than answering 401, so a
 * stale token does not break a public call.
 */
export const optionalUser = createMiddleware<MaybeAuthEnv>(async (c, next) => {
  const token = bearerToken(c.req.header('authorization'))
  const found = token
    ? await findSession(c.var.db, token, c.var.clock.now(), c.var.config.sessions)
    : undefined
  if (found) {
    c.set('user', found.user)
    c.set('sessionId', found.sessionId)
  }
  await next()
})
