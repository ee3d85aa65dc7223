import { createHash } from 'node:crypto'
import type { Kysely } from 'kysely'
import type { Database } from '../db/schema'
import { TooManyRequestsError } from '../http/errors'
import { lockKey, minutesUntil } from './codes'

/** Failed password checks are counted in windows of this length. */
export const LOGIN_WINDOW_MS = 15 * 60_000

/** Failed password checks allowed per window (LOGIN_FAILURES_PER_ACCOUNT / _PER_IP). */
export interface LoginLimits {
  perAccount: number
  perIp: number
}

export interface LoginAttempt {
  /** `user:<username key>` or `phone:<E.164>`; null when the form named nobody valid. */
  identity: string | null
  ip: string | null
  now: Date
}

// Login rows share `code_throttle` with the code limits under their own prefix. For them
// `failures` counts the password checks of the current window and `locked_until` is when that
// window ends: a row whose window has ended counts as zero.
const KEY_PREFIX = 'login:'
const keyFor = (kind: 'id' | 'ip', value: string) => {
  // The column is varchar(300) and a username field is not length-checked before this.
  const part = value.length > 200 ? createHash('sha256').update(value).digest('hex') : value
  return `${KEY_PREFIX}${kind}:${part}`
}

function keysOf(attempt: LoginAttempt, limits: LoginLimits): [string, number][] {
  // Always the identity first, then the address: one order, so no two requests deadlock.
  const keys: [string, number][] = []
  if (attempt.identity) keys.push([keyFor('id', attempt.identity), limits.perAccount])
  if (attempt.ip) keys.push([keyFor('ip', attempt.ip), limits.perIp])
  return keys
}

/**
 * Run before a password is hashed: 429 when the identity or the address used up its failed
 * checks for the window; otherwise this check is counted as a failure in advance, so that
 * concurrent guesses (on any instance) cannot all pass before one is counted. A right password
 * takes it back with `loginSucceeded`.
 */
export async function reserveLoginAttempt(
  db: Kysely<Database>,
  limits: LoginLimits,
  attempt: LoginAttempt,
): Promise<void> {
  const keys = keysOf(attempt, limits)
  if (keys.length === 0) return
  const nowMs = attempt.now.getTime()
  const at = attempt.now.toISOString()
  let startedWindow = false
  await db.transaction().execute(async (trx) => {
    const counts: { key: string; failures: number; until: string }[] = []
    for (const [key, cap] of keys) {
      const row = await lockKey(trx, key, at)
      const open = row.locked_until !== null && Date.parse(row.locked_until) > nowMs
      if (open && row.failures >= cap) {
        const until = Date.parse(row.locked_until!)
        throw new TooManyRequestsError('auth.too_many_failures', (until - nowMs) / 1000, {
          minutes: minutesUntil(until, nowMs),
        })
      }
      if (!open) startedWindow = true
      counts.push({
        key,
        failures: open ? row.failures + 1 : 1,
        until: open ? row.locked_until! : new Date(nowMs + LOGIN_WINDOW_MS).toISOString(),
      })
    }
    for (const c of counts) {
      await trx
        .updateTable('code_throttle')
        .set({ failures: c.failures, locked_until: c.until })
        .where('key', '=', c.key)
        .execute()
    }
  })
  if (startedWindow) {
    // Outside the counting transaction: rows whose window is over say nothing any more.
    await db
      .deleteFrom('code_throttle')
      .where('key', 'like', `${KEY_PREFIX}%`)
      .where('locked_until', '<', at)
      .execute()
  }
}

/** The password was right: the identity starts again from zero, the address gets its try back. */
export async function loginSucceeded(
  db: Kysely<Database>,
  limits: LoginLimits,
  attempt: LoginAttempt,
): Promise<void> {
  const at = attempt.now.toISOString()
  await db.transaction().execute(async (trx) => {
    for (const [key] of keysOf(attempt, limits)) {
      const row = await lockKey(trx, key, at)
      const isIp = key.startsWith(`${KEY_PREFIX}ip:`)
      await trx
        .updateTable('code_throttle')
        .set(
          isIp ? { failures: Math.max(0, row.failures - 1) } : { failures: 0, locked_until: null },
        )
        .where('key', '=', key)
        .execute()
    }
  })
}
