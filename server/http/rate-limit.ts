import type { Context, MiddlewareHandler } from 'hono'
import type { Config } from '../config'
import { minutesUntil } from '../services/codes'
import { hitRateLimit } from '../services/rate-limit'
import { addressKey, clientIp } from './client-ip'
import type { AppEnv } from './env'
import { TooManyRequestsError } from '../core/errors'

const HOUR_MS = 60 * 60_000

export interface RateLimitRule<E extends AppEnv> {
  /** The limit's name, the first part of its keys. */
  name: string
  /** Requests per hour, from the configuration (so tests and the browser journeys can raise it). */
  perHour: (config: Config) => number
  /** Who is counted; undefined lets the request through uncounted. */
  key: (c: Context<E>) => string | undefined
}

/** 429 with Retry-After past `perHour` requests in the current hour of one key. */
export function rateLimit<E extends AppEnv>(rule: RateLimitRule<E>): MiddlewareHandler<E> {
  return async (c, next) => {
    const who = rule.key(c)
    if (who !== undefined) {
      const now = c.var.clock.now()
      const result = await hitRateLimit(c.var.db, {
        key: `${rule.name}:${who}`,
        limit: rule.perHour(c.var.config),
        windowMs: HOUR_MS,
        now,
      })
      if (!result.allowed) {
        const until = now.getTime() + result.retryAfterMs
        throw new TooManyRequestsError('errors.rate_limited', result.retryAfterMs / 1000, {
          minutes: minutesUntil(until, now.getTime()),
        })
      }
    }
    await next()
  }
}

/** The client's address as a rate-limit key (IPv6 by its /64); undefined when unknown. */
export function byAddress<E extends AppEnv>(c: Context<E>): string | undefined {
  const key = addressKey(clientIp(c, c.var.config.trustProxy))
  return key === null ? undefined : `ip:${key}`
}
