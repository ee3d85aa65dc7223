import type { Context } from 'hono'
import { canonicalAddress, whitelistAllows } from '../../src/domain/ip-whitelist'
import type { UserRow } from '../db/schema'
import type { MessageId } from '../i18n'
import { findApiTokenOwner } from '../services/api-tokens'
import { minutesUntil } from '../services/codes'
import { hitRateLimit } from '../services/rate-limit'
import { clientIp } from './client-ip'
import type { AppEnv } from './env'

const MINUTE_MS = 60_000

/** Why a call made with an API token is refused, for each API to say in its own shape. */
export interface ApiTokenRefusal {
  ok: false
  status: 401 | 403 | 429
  id: MessageId
  values?: Record<string, unknown>
  retryAfterSeconds?: number
}

export type ApiTokenCheck = { ok: true; user: UserRow } | ApiTokenRefusal

/**
 * The account an API token opens for this request, or why not: unknown (401), switched off by
 * an empty whitelist or called from an address not on it (403), or past its per-minute limit
 * (429). The address is the client's as seen through TRUST_PROXY, so an X-Forwarded-For from a
 * peer that is not a trusted proxy is never read. Only calls from whitelisted addresses count
 * towards the limit, so nobody elsewhere can spend the owner's allowance.
 */
export async function checkApiToken<E extends AppEnv>(
  c: Context<E>,
  token: string,
): Promise<ApiTokenCheck> {
  const { db, config, clock } = c.var
  const user = await findApiTokenOwner(db, token)
  if (!user || user.api_token_hash === null)
    return { ok: false, status: 401, id: 'auth.api_token.invalid' }
  if (!user.ip_whitelist) return { ok: false, status: 403, id: 'auth.api_token.off' }
  const ip = clientIp(c, config.trustProxy)
  if (!whitelistAllows(user.ip_whitelist, ip)) {
    const address = canonicalAddress(ip) ?? ip?.slice(0, 64) ?? '?'
    return { ok: false, status: 403, id: 'auth.api_token.address', values: { address } }
  }
  const now = clock.now()
  const counted = await hitRateLimit(db, {
    // Per token (a new token starts a new count), not per address: a reseller's servers share it.
    key: `api-token:${user.api_token_hash.slice(0, 32)}`,
    limit: config.rateLimits.apiTokenPerMinute,
    windowMs: MINUTE_MS,
    now,
  })
  if (!counted.allowed) {
    return {
      ok: false,
      status: 429,
      id: 'errors.rate_limited',
      values: { minutes: minutesUntil(now.getTime() + counted.retryAfterMs, now.getTime()) },
      retryAfterSeconds: Math.max(1, Math.ceil(counted.retryAfterMs / 1000)),
    }
  }
  return { ok: true, user }
}

/** The headers a refusal carries: how to authenticate (401), when to come back (429). */
export function refusalHeaders(c: Context, refusal: ApiTokenRefusal): void {
  if (refusal.status === 401) c.header('WWW-Authenticate', 'Bearer')
  if (refusal.retryAfterSeconds !== undefined)
    c.header('Retry-After', String(refusal.retryAfterSeconds))
}
