import { createHash } from 'node:crypto'
import type { Kysely } from 'kysely'
import type { Database } from '../db/schema'

/**
 * Failed sign-ins and wrong codes, one row each in `auth_failures`, counted over sliding
 * windows three ways: per identity and address together (`pair`: what one address did to one
 * account; a success from that address clears it), per identity (`identity`: everything done
 * to one account from anywhere, never cleared), and per address (`address`: one address
 * across accounts). An attacker's failures fill the attacker's pairs; the owner's own address
 * is a pair of its own, so the owner is refused only when the account as a whole is.
 */

export type FailureKind = 'login' | 'code'

export interface AttemptScope {
  /** login: `user:<username key>` or `phone:<E.164>`; code: the recipient. */
  identity: string
  /** The client address key (IPv6 by /64), null when unknown. */
  address: string | null
}

export interface WindowRule {
  per: 'pair' | 'identity' | 'address'
  ms: number
  /** Failures the window holds; at this many the scope waits until the oldest ages out. */
  max: number
}

/** The longest window in use: rows older than this say nothing any more. */
export const KEEP_FAILURES_MS = 30 * 24 * 60 * 60_000

const iso = (ms: number) => new Date(ms).toISOString()

/** The identity column is varchar(300); a longer typed name is kept as its hash. */
export const identityKey = (value: string) =>
  value.length > 250 ? `sha256:${createHash('sha256').update(value).digest('hex')}` : value

const addressOf = (scope: AttemptScope) => scope.address ?? ''

/**
 * When the scope may try again: the latest end among the windows that are full, or null when
 * none is. Run it in the transaction that holds the scope's lock (services/codes.ts lockKey).
 */
export async function blockedUntil(
  db: Kysely<Database>,
  kind: FailureKind,
  scope: AttemptScope,
  rules: readonly WindowRule[],
  nowMs: number,
): Promise<number | null> {
  let until: number | null = null
  for (const rule of rules) {
    let query = db
      .selectFrom('auth_failures')
      .select('created_at')
      .where('kind', '=', kind)
      .where('created_at', '>', iso(nowMs - rule.ms))
    if (rule.per !== 'address') query = query.where('identity', '=', identityKey(scope.identity))
    if (rule.per !== 'identity') query = query.where('address', '=', addressOf(scope))
    if (rule.per === 'pair') query = query.where('cleared', '=', 0)
    // The max-th newest failure: the window has room again once it is `ms` old.
    const row = await query
      .orderBy('created_at', 'desc')
      .limit(1)
      .offset(rule.max - 1)
      .executeTakeFirst()
    if (row) until = Math.max(until ?? 0, Date.parse(row.created_at) + rule.ms)
  }
  return until
}

/** Counts one failure; returns its id (a reserved sign-in try is taken back by it). */
export async function recordFailure(
  db: Kysely<Database>,
  kind: FailureKind,
  scope: AttemptScope,
  now: Date,
): Promise<number> {
  const row = await db
    .insertInto('auth_failures')
    .values({
      kind,
      identity: identityKey(scope.identity),
      address: addressOf(scope),
      created_at: now.toISOString(),
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  return Number(row.id)
}

/** Takes back a failure counted in advance (the password turned out right). */
export async function forgetFailure(db: Kysely<Database>, id: number): Promise<void> {
  await db.deleteFrom('auth_failures').where('id', '=', id).execute()
}

/** A success from this address: its failures against this identity no longer count for it. */
export async function clearPair(
  db: Kysely<Database>,
  kind: FailureKind,
  scope: AttemptScope,
): Promise<void> {
  await db
    .updateTable('auth_failures')
    .set({ cleared: 1 })
    .where('kind', '=', kind)
    .where('identity', '=', identityKey(scope.identity))
    .where('address', '=', addressOf(scope))
    .where('cleared', '=', 0)
    .execute()
}

/** The failures of one identity in the last `ms`: how many, and when the latest was. */
export async function identityFailures(
  db: Kysely<Database>,
  kind: FailureKind,
  identity: string,
  ms: number,
  nowMs: number,
): Promise<{ count: number; latestMs: number | null }> {
  const row = await db
    .selectFrom('auth_failures')
    .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.max('created_at').as('latest')])
    .where('kind', '=', kind)
    .where('identity', '=', identityKey(identity))
    .where('created_at', '>', iso(nowMs - ms))
    .executeTakeFirstOrThrow()
  return {
    count: Number(row.n),
    latestMs: row.latest === null ? null : Date.parse(String(row.latest)),
  }
}

/**
 * Forgets every failure against an identity. Only for a proof that the failures can no longer
 * continue: wrong sign-in codes need the password, so once its owner has set a new one, the
 * old password's holder's guesses at the phone's codes stop counting.
 */
export async function forgetIdentityFailures(
  db: Kysely<Database>,
  kind: FailureKind,
  identity: string,
): Promise<void> {
  await db
    .deleteFrom('auth_failures')
    .where('kind', '=', kind)
    .where('identity', '=', identityKey(identity))
    .execute()
}

/** Forgets failures older than every window. Outside the counting transactions. */
export async function pruneFailures(db: Kysely<Database>, now: Date): Promise<void> {
  await db
    .deleteFrom('auth_failures')
    .where('created_at', '<', iso(now.getTime() - KEEP_FAILURES_MS))
    .execute()
}
