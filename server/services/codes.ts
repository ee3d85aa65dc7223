import { createHmac, randomInt, timingSafeEqual } from 'node:crypto'
import type { Kysely } from 'kysely'
import type { CodePurpose, Database } from '../db/schema'
import { ServiceUnavailableError, TooManyRequestsError } from '../core/errors'
import { ValidationError } from '../core/errors'
import { blockedUntil, clearPair, pruneFailures, recordFailure, type WindowRule } from './attempts'
import { storedSecret } from './stored-secret'

const MINUTE_MS = 60_000
const DAY_MS = 24 * 60 * MINUTE_MS

/** Four digits, 60 s between sends, plus the limits that keep 4 digits from being guessed. */
export const CODE_RULES = {
  length: 4,
  ttlMs: 10 * MINUTE_MS,
  /** Wrong tries a code survives; the next one kills it. */
  maxTries: 5,
  /**
   * Wrong codes for one recipient, counted over sliding windows (services/attempts.ts). From
   * one address (`pair`): 10 an hour, 15 a day, 30 in 30 days, so a customer who mistypes is
   * not held up, and one attacker's address is stopped long before the account is. For the
   * recipient as a whole (`identity`, every address): 30 a day and 60 in 30 days. A full
   * window refuses further codes and checks until its oldest failure ages out, so the waits
   * grow from minutes to a day to the month. The 60 bound the guessing: see docs/security.md, "The
   * figure".
   */
  failureWindows: [
    { per: 'pair', ms: 60 * MINUTE_MS, max: 10 },
    { per: 'pair', ms: DAY_MS, max: 15 },
    { per: 'pair', ms: 30 * DAY_MS, max: 30 },
    { per: 'identity', ms: DAY_MS, max: 30 },
    { per: 'identity', ms: 30 * DAY_MS, max: 60 },
  ] satisfies WindowRule[],
  resendMs: 60_000,
  perRecipientPerHour: 5,
  perIpPerHour: 20,
  /** Codes the whole store sends an hour (CODE_SENDS_PER_HOUR): a ceiling on the WhatsApp bill. */
  perHour: 200,
  /** Sent codes are kept this long (they are the hourly caps' log), then deleted. */
  keepMs: 24 * 60 * 60_000,
} as const

const HOUR_MS = 60 * 60_000
const SECRET_SETTING = 'code_secret'

/**
 * The HMAC key for codes: CODE_SECRET when set, otherwise a random key generated once and kept
 * in the settings table, so every instance on the same database agrees on it.
 */
export function codeSecret(db: Kysely<Database>, configured: string | undefined): Promise<string> {
  return configured ? Promise.resolve(configured) : storedSecret(db, SECRET_SETTING)
}

/** Bound to purpose and recipient: a sign-up code is no good for a login, nor for anyone else. */
function hashCode(secret: string, purpose: CodePurpose, recipient: string, code: string): string {
  return createHmac('sha256', secret).update(`${purpose}\0${recipient}\0${code}`).digest('hex')
}

const iso = (ms: number) => new Date(ms).toISOString()
const secondsUntil = (untilMs: number, nowMs: number) =>
  Math.max(1, Math.ceil((untilMs - nowMs) / 1000))
export const minutesUntil = (untilMs: number, nowMs: number) =>
  Math.max(1, Math.ceil((untilMs - nowMs) / 60_000))

/**
 * Takes the row lock of a throttle key for the rest of the transaction (an upsert locks the
 * row on PostgreSQL; SQLite transactions hold the database's write lock from the start), so
 * concurrent requests for one recipient count one after another, on any instance.
 */
export async function lockKey(trx: Kysely<Database>, key: string, at: string) {
  return trx
    .insertInto('code_throttle')
    .values({ key, updated_at: at })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({ updated_at: (eb) => eb.ref('excluded.updated_at') }),
    )
    .returning(['failures', 'locked_until'])
    .executeTakeFirstOrThrow()
}

/** 429 until the lock ends, said in minutes, hours or days, whichever reads best. */
function lockError(lockedUntil: string, nowMs: number): TooManyRequestsError {
  const until = Date.parse(lockedUntil)
  const seconds = (until - nowMs) / 1000
  const minutes = minutesUntil(until, nowMs)
  if (minutes <= 90) return new TooManyRequestsError('codes.locked', seconds, { minutes })
  const hours = Math.ceil(minutes / 60)
  if (hours <= 48) return new TooManyRequestsError('codes.locked_hours', seconds, { hours })
  return new TooManyRequestsError('codes.locked_days', seconds, { days: Math.ceil(hours / 24) })
}

/** When this recipient may get or check a code again from this address, if it must wait. */
async function codeBlock(
  trx: Kysely<Database>,
  recipient: string,
  address: string | null,
  nowMs: number,
): Promise<string | null> {
  const until = await blockedUntil(
    trx,
    'code',
    { identity: recipient, address },
    CODE_RULES.failureWindows,
    nowMs,
  )
  return until !== null && until > nowMs ? iso(until) : null
}

/** The send limits an operator may tune (CODE_RESEND_SECONDS and the hourly caps). */
export interface SendLimits {
  resendMs: number
  perRecipientPerHour: number
  perIpPerHour: number
  perHour: number
}

export interface IssueRequest {
  limits?: SendLimits
  purpose: CodePurpose
  /** E.164 phone or lower-case e-mail. */
  recipient: string
  /** The client address key (IPv6 by /64). */
  ip: string | null
  now: Date
  secret: string
  /**
   * While wrong codes hold the recipient: `refuse` (429, the default), or `count` the send
   * anyway and answer `paused` (a reset e-mail then carries its link without the code).
   */
  whenHeld?: 'refuse' | 'count'
}

export interface IssuedCode {
  code: string
  /** Wrong codes hold the recipient: this code cannot be checked until the hold ends. */
  paused: boolean
}

/**
 * Makes and stores a new code, or throws 429 when wrong codes hold the recipient (from this
 * address or from everywhere; unless `whenHeld: 'count'`), it was asked less than 60 s ago,
 * or reached the hourly cap, or the address reached its hourly cap; 503 when the store's
 * hourly budget of codes is spent. The caller delivers the returned code.
 */
export async function issueCode(db: Kysely<Database>, req: IssueRequest): Promise<IssuedCode> {
  const nowMs = req.now.getTime()
  const at = req.now.toISOString()
  const hourAgo = iso(nowMs - HOUR_MS)
  const code = String(randomInt(0, 10 ** CODE_RULES.length)).padStart(CODE_RULES.length, '0')
  const limits = req.limits ?? CODE_RULES

  const paused = await db.transaction().execute(async (trx) => {
    // Always the recipient first, then the address: one order, so no two requests deadlock.
    await lockKey(trx, req.recipient, at)
    if (req.ip) await lockKey(trx, `ip:${req.ip}`, at)
    const blocked = await codeBlock(trx, req.recipient, req.ip, nowMs)
    if (blocked && req.whenHeld !== 'count') throw lockError(blocked, nowMs)

    const sent = await trx
      .selectFrom('verification_codes')
      .select('created_at')
      .where('recipient', '=', req.recipient)
      .where('created_at', '>', hourAgo)
      .orderBy('created_at')
      .execute()
    const last = sent.at(-1)
    if (last && nowMs - Date.parse(last.created_at) < limits.resendMs) {
      const until = Date.parse(last.created_at) + limits.resendMs
      throw new TooManyRequestsError('codes.wait', (until - nowMs) / 1000, {
        seconds: secondsUntil(until, nowMs),
      })
    }
    capCheck(sent, limits.perRecipientPerHour, nowMs)

    if (req.ip) {
      const fromIp = await trx
        .selectFrom('verification_codes')
        .select('created_at')
        .where('ip', '=', req.ip)
        .where('created_at', '>', hourAgo)
        .orderBy('created_at')
        .execute()
      capCheck(fromIp, limits.perIpPerHour, nowMs)
    }

    // Last, and locked last: the budget row serialises every send of the store, briefly.
    await lockKey(trx, 'budget:codes', at)
    const budgetFull = await trx
      .selectFrom('verification_codes')
      .select('created_at')
      .where('created_at', '>', hourAgo)
      .orderBy('created_at', 'desc')
      .limit(1)
      .offset(limits.perHour - 1)
      .executeTakeFirst()
    if (budgetFull) {
      const until = Date.parse(budgetFull.created_at) + HOUR_MS
      throw new ServiceUnavailableError('codes.busy', (until - nowMs) / 1000, {
        minutes: minutesUntil(until, nowMs),
      })
    }

    await trx
      .insertInto('verification_codes')
      .values({
        purpose: req.purpose,
        recipient: req.recipient,
        code_hash: hashCode(req.secret, req.purpose, req.recipient, code),
        ip: req.ip,
        created_at: at,
        expires_at: iso(nowMs + CODE_RULES.ttlMs),
        consumed_at: null,
      })
      .execute()
    return blocked !== null
  })

  // Outside the counting transaction: housekeeping must not hold the recipient's lock.
  const cutoff = iso(nowMs - CODE_RULES.keepMs)
  await db.deleteFrom('verification_codes').where('created_at', '<', cutoff).execute()
  await db
    .deleteFrom('code_throttle')
    .where('updated_at', '<', cutoff)
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', at)]))
    .execute()
  await pruneFailures(db, req.now)
  return { code, paused }
}

/** Throws 429 when `sent` (the last hour's sends, oldest first) already holds `cap` sends. */
function capCheck(sent: { created_at: string }[], cap: number, nowMs: number) {
  if (sent.length < cap) return
  // The window has room again once enough of the oldest sends are an hour old.
  const until = Date.parse(sent[sent.length - cap]!.created_at) + HOUR_MS
  throw new TooManyRequestsError('codes.too_many', (until - nowMs) / 1000, {
    minutes: minutesUntil(until, nowMs),
  })
}

export type CodeCheck =
  | { ok: true }
  | { ok: false; reason: 'invalid' | 'expired' }
  /** `started`: this very failure began the lock (its owner is told). */
  | { ok: false; reason: 'locked'; lockedUntil: string; started: boolean }

export interface VerifyRequest {
  purpose: CodePurpose
  recipient: string
  code: string
  /** The client address key (IPv6 by /64): wrong codes are counted per recipient and address. */
  address: string | null
  now: Date
  secret: string
  /** Use the code up (sign-up, login, reset); a check only looks (check/verification-code). */
  consume: boolean
}

/**
 * Checks a code against the newest one sent for this purpose and recipient. Run it inside the
 * caller's transaction, so using the code and what it allows (a new account, a session, a new
 * password) happen together, and return the result from the transaction: a wrong code's
 * counts must be committed, not rolled back by a throw.
 */
export async function verifyCode(trx: Kysely<Database>, req: VerifyRequest): Promise<CodeCheck> {
  const nowMs = req.now.getTime()
  const at = req.now.toISOString()
  await lockKey(trx, req.recipient, at)
  const blocked = await codeBlock(trx, req.recipient, req.address, nowMs)
  if (blocked) return { ok: false, reason: 'locked', lockedUntil: blocked, started: false }

  const latest = await trx
    .selectFrom('verification_codes')
    .select(['id', 'code_hash', 'attempts', 'expires_at', 'consumed_at'])
    .where('purpose', '=', req.purpose)
    .where('recipient', '=', req.recipient)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst()

  const usable =
    latest !== undefined &&
    latest.consumed_at === null &&
    Date.parse(latest.expires_at) > nowMs &&
    latest.attempts < CODE_RULES.maxTries
  const given = Buffer.from(hashCode(req.secret, req.purpose, req.recipient, req.code), 'hex')
  const matches =
    latest !== undefined && timingSafeEqual(given, Buffer.from(latest.code_hash, 'hex'))
  const scope = { identity: req.recipient, address: req.address }

  if (usable && matches) {
    // The owner got it right from here: this address's wrong tries stop counting against it.
    // The recipient's own count stays: a success must not give a guesser a fresh budget.
    await clearPair(trx, 'code', scope)
    if (req.consume) {
      await trx
        .updateTable('verification_codes')
        .set({ consumed_at: at })
        .where('id', '=', latest.id)
        .execute()
    }
    return { ok: true }
  }

  if (usable) {
    await trx
      .updateTable('verification_codes')
      .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
      .where('id', '=', latest.id)
      .execute()
  }
  await recordFailure(trx, 'code', scope, req.now)
  const nowBlocked = await codeBlock(trx, req.recipient, req.address, nowMs)
  if (nowBlocked) return { ok: false, reason: 'locked', lockedUntil: nowBlocked, started: true }
  return { ok: false, reason: latest === undefined || usable ? 'invalid' : 'expired' }
}

/** The reply for a failed check: 422 on the code field, or 429 while the recipient is locked. */
export function codeFailure(check: Exclude<CodeCheck, { ok: true }>, now: Date): Error {
  if (check.reason === 'locked') return lockError(check.lockedUntil, now.getTime())
  return new ValidationError(
    [
      {
        field: 'verification_code',
        id: check.reason === 'invalid' ? 'codes.invalid' : 'codes.expired',
      },
    ],
    {},
  )
}
