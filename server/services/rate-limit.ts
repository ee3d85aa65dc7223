import { sql, type Kysely } from 'kysely'
import type { Database } from '../db/schema'

export interface RateLimitCheck {
  /** Namespaced, e.g. `signup:ip:203.0.113.7`. */
  key: string
  /** Requests allowed per window. */
  limit: number
  windowMs: number
  now: Date
}

export type RateLimitResult = { allowed: true } | { allowed: false; retryAfterMs: number }

/** Rows of windows older than this are deleted; the longest window in use is a day. */
const KEEP_MS = 2 * 24 * 60 * 60_000

/**
 * Counts one request against a fixed window (windows start at multiples of `windowMs`) and
 * says whether it is within the limit. One statement, so concurrent requests on any instance
 * count one after another: the upsert restarts the count when the stored window is an old one.
 */
export async function hitRateLimit(
  db: Kysely<Database>,
  check: RateLimitCheck,
): Promise<RateLimitResult> {
  const nowMs = check.now.getTime()
  const startMs = Math.floor(nowMs / check.windowMs) * check.windowMs
  const windowStart = new Date(startMs).toISOString()
  const row = await db
    .insertInto('rate_limits')
    .values({ key: check.key, window_start: windowStart, hits: 1 })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({
        hits: sql<number>`case when rate_limits.window_start = excluded.window_start
          then rate_limits.hits + 1 else 1 end`,
        window_start: sql<string>`excluded.window_start`,
      }),
    )
    .returning('hits')
    .executeTakeFirstOrThrow()
  if (Number(row.hits) === 1) {
    // A new window for this key: a good moment to forget the long-finished ones.
    await db
      .deleteFrom('rate_limits')
      .where('window_start', '<', new Date(nowMs - KEEP_MS).toISOString())
      .execute()
  }
  return Number(row.hits) <= check.limit
    ? { allowed: true }
    : { allowed: false, retryAfterMs: startMs + check.windowMs - nowMs }
}

/**
 * Takes back one request counted by `hitRateLimit` in the current window (a try counted in
 * advance that turned out right); nothing when the window has moved on since.
 */
export async function forgetHit(
  db: Kysely<Database>,
  { key, windowMs, now }: Omit<RateLimitCheck, 'limit'>,
): Promise<void> {
  const windowStart = new Date(Math.floor(now.getTime() / windowMs) * windowMs).toISOString()
  await db
    .updateTable('rate_limits')
    .set((eb) => ({ hits: eb('hits', '-', 1) }))
    .where('key', '=', key)
    .where('window_start', '=', windowStart)
    .where('hits', '>', 0)
    .execute()
}

/**
 * Lets `key` through at most once in any `windowMs`, wherever the window falls on the clock
 * (a fixed window would let two through a minute apart, either side of its edge): true, and
 * the time noted, when the last time it went through is `windowMs` or more before `now`.
 * One statement, so of two concurrent calls only one gets true.
 */
export async function onceWithin(
  db: Kysely<Database>,
  { key, windowMs, now }: Omit<RateLimitCheck, 'limit'>,
): Promise<boolean> {
  const row = await db
    .insertInto('rate_limits')
    .values({ key, window_start: now.toISOString(), hits: 1 })
    .onConflict((oc) =>
      oc
        .column('key')
        .doUpdateSet({ window_start: sql<string>`excluded.window_start`, hits: 1 })
        .where('rate_limits.window_start', '<=', new Date(now.getTime() - windowMs).toISOString()),
    )
    .returning('hits')
    .executeTakeFirst()
  return row !== undefined
}
