import type { Kysely } from 'kysely'
import type { Database } from '../db/schema'
import { TooManyRequestsError } from '../core/errors'
import {
  blockedUntil,
  clearPair,
  forgetFailure,
  forgetIdentityFailures,
  identityFailures,
  pruneFailures,
  recordFailure,
  type AttemptScope,
  type WindowRule,
} from './attempts'
import { lockKey, minutesUntil } from './codes'

/** Failed password checks are counted in windows of this length. */
export const LOGIN_WINDOW_MS = 15 * 60_000
/** The account-wide count, across addresses, looks back this far. */
export const LOGIN_DAY_MS = 24 * 60 * 60_000
/** Past the account-wide ceiling, each try waits this long after the last failure, doubled... */
export const LOGIN_DELAY_BASE_MS = 10_000
/** ...up to this. A delay, never a lock: the owner gets in after at most this long. */
export const LOGIN_DELAY_MAX_MS = 15 * 60_000

/** LOGIN_FAILURES_PER_ACCOUNT, _PER_IP and _PER_ACCOUNT_PER_DAY. */
export interface LoginLimits {
  /** Per account from one address, per 15 minutes: that address waits, the owner does not. */
  perAccount: number
  /** Per address across accounts, per 15 minutes. */
  perIp: number
  /**
   * Per account from all addresses, per day: past it every try waits a growing delay (tries
   * with a device cookie of the account are counted apart and never wait for it).
   */
  perAccountPerDay: number
}

export interface LoginAttempt {
  /** `user:<username key>` or `phone:<E.164>`; null when the form named nobody valid. */
  identity: string | null
  /** The client address key (IPv6 by /64). */
  ip: string | null
  now: Date
  /**
   * The nonce of a valid device cookie for the account named (services/device-cookie.ts):
   * the try is then counted against that device alone.
   */
  device?: string | null
}

/** A sign-in try counted in advance; `loginSucceeded` takes it back. */
export interface Reservation {
  attempt: LoginAttempt
  failureId: number | null
}

/** A device that signed in before has its own window: LOGIN_FAILURES_PER_ACCOUNT per 15 min. */
const deviceRules = (limits: LoginLimits): WindowRule[] => [
  { per: 'identity', ms: LOGIN_WINDOW_MS, max: limits.perAccount },
]

const rulesFor = (limits: LoginLimits, hasIdentity: boolean): WindowRule[] => [
  ...(hasIdentity ? [{ per: 'pair' as const, ms: LOGIN_WINDOW_MS, max: limits.perAccount }] : []),
  { per: 'address', ms: LOGIN_WINDOW_MS, max: limits.perIp },
]

/** The account-wide delay after `count` failures in a day, the last at `latestMs`. */
export function accountDelayMs(count: number, ceiling: number): number {
  if (count < ceiling) return 0
  return Math.min(LOGIN_DELAY_MAX_MS, LOGIN_DELAY_BASE_MS * 2 ** Math.min(count - ceiling, 20))
}

function refuse(untilMs: number, nowMs: number): TooManyRequestsError {
  return new TooManyRequestsError('auth.too_many_failures', (untilMs - nowMs) / 1000, {
    minutes: minutesUntil(untilMs, nowMs),
  })
}

/**
 * Run before a password is hashed: 429 when this address used up its failed checks for this
 * account (or for all accounts), or while the account as a whole must wait its growing delay;
 * otherwise the check is counted as a failure in advance, so that concurrent guesses (on any
 * instance) cannot all pass before one is counted. A right password takes it back.
 */
/**
 * The locks every change to a pair's failures takes first, always the identity's then the
 * address's: one order, so no two requests deadlock over each other's rows.
 */
async function lockPair(trx: Kysely<Database>, scope: AttemptScope, at: string) {
  await lockKey(trx, `login:id:${scope.identity.slice(0, 250)}`, at)
  await lockKey(trx, `login:ip:${scope.address ?? ''}`, at)
}

export async function reserveLoginAttempt(
  db: Kysely<Database>,
  limits: LoginLimits,
  attempt: LoginAttempt,
): Promise<Reservation> {
  const nowMs = attempt.now.getTime()
  const at = attempt.now.toISOString()
  if (attempt.device) {
    // The owner's device: only its own failures count, never the account's or the address's.
    const scope: AttemptScope = { identity: `device:${attempt.device}`, address: attempt.ip }
    const failureId = await db.transaction().execute(async (trx) => {
      await lockKey(trx, `login:${scope.identity}`, at)
      const until = await blockedUntil(trx, 'login', scope, deviceRules(limits), nowMs)
      if (until !== null && until > nowMs) throw refuse(until, nowMs)
      return recordFailure(trx, 'login', scope, attempt.now)
    })
    return { attempt: { ...attempt, identity: scope.identity }, failureId }
  }
  // A form that named nobody valid is counted against its address only.
  const scope: AttemptScope = {
    identity: attempt.identity ?? `nobody:${attempt.ip ?? ''}`,
    address: attempt.ip,
  }
  const failureId = await db.transaction().execute(async (trx) => {
    await lockPair(trx, scope, at)
    let until = await blockedUntil(trx, 'login', scope, rulesFor(limits, !!attempt.identity), nowMs)
    if (attempt.identity) {
      const day = await identityFailures(trx, 'login', scope.identity, LOGIN_DAY_MS, nowMs)
      const delay = accountDelayMs(day.count, limits.perAccountPerDay)
      if (delay > 0 && day.latestMs !== null && day.latestMs + delay > nowMs) {
        until = Math.max(until ?? 0, day.latestMs + delay)
      }
    }
    if (until !== null && until > nowMs) throw refuse(until, nowMs)
    return recordFailure(trx, 'login', scope, attempt.now)
  })
  await pruneFailures(db, attempt.now)
  return { attempt: { ...attempt, identity: scope.identity }, failureId }
}

/**
 * The password was right: the try counted in advance is taken back, and this address's
 * failures against this account no longer count for it (they still do for the account).
 */
export async function loginSucceeded(db: Kysely<Database>, reservation: Reservation) {
  const { attempt, failureId } = reservation
  if (attempt.device) {
    // The right password on its own device: the device starts from zero.
    await forgetIdentityFailures(db, 'login', attempt.identity!)
    return
  }
  await db.transaction().execute(async (trx) => {
    const scope = attempt.identity ? { identity: attempt.identity, address: attempt.ip } : null
    // Concurrent right passwords of one pair take turns; without the locks each held its own
    // failure row and waited for the other's (a deadlock on PostgreSQL).
    if (scope) await lockPair(trx, scope, attempt.now.toISOString())
    if (failureId !== null) await forgetFailure(trx, failureId)
    if (scope) await clearPair(trx, 'login', scope)
  })
}
