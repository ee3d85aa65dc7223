import { randomBytes } from 'node:crypto'
import type { Kysely } from 'kysely'
import type { Database } from '../db/schema'
import { ApiError } from '../core/errors'
import { hashToken } from './sessions'

/**
 * A password-reset link: 256 random bits (base64url, 43 characters) that stand for the 4-digit
 * code, so wrong codes from others (which pause the codes) never keep the owner from a reset.
 * Only its SHA-256 is stored; it works once, for 30 minutes, and a reset by any means ends
 * every other link of the account.
 */
export const RESET_LINK = {
  ttlMs: 30 * 60_000,
  /** Links are kept this long after they expire (then deleted), so "used" reads as used. */
  keepMs: 24 * 60 * 60_000,
}

export const RESET_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/

/** Makes a link token for the account; the caller puts it in the reset e-mail. */
export async function newResetLink(
  db: Kysely<Database>,
  userId: number,
  now: Date,
): Promise<string> {
  const token = randomBytes(32).toString('base64url')
  const at = now.toISOString()
  await db
    .deleteFrom('reset_links')
    .where('expires_at', '<', new Date(now.getTime() - RESET_LINK.keepMs).toISOString())
    .execute()
  await db
    .insertInto('reset_links')
    .values({
      user_id: userId,
      token_hash: hashToken(token),
      created_at: at,
      expires_at: new Date(now.getTime() + RESET_LINK.ttlMs).toISOString(),
      used_at: null,
    })
    .execute()
  return token
}

/** Why a link cannot be used: 422 with a message that says what to do. */
function refusal(row: { used_at: string | null } | undefined): ApiError {
  if (!row) return new ApiError(422, 'reset_link.invalid')
  return new ApiError(422, row.used_at === null ? 'reset_link.expired' : 'reset_link.used')
}

/**
 * The account a usable token opens, without using it up (a cheap look before the new
 * password is hashed); throws the refusal otherwise.
 */
export async function lookResetLink(
  db: Kysely<Database>,
  token: string,
  now: Date,
): Promise<number> {
  const row = RESET_TOKEN_PATTERN.test(token)
    ? await db
        .selectFrom('reset_links')
        .select(['user_id', 'used_at', 'expires_at'])
        .where('token_hash', '=', hashToken(token))
        .executeTakeFirst()
    : undefined
  if (!row || row.used_at !== null || row.expires_at <= now.toISOString()) throw refusal(row)
  return row.user_id
}

/**
 * Uses the token up inside the caller's transaction: one conditional UPDATE, so of several
 * requests with one token exactly one gets its account; the others get the refusal. Then
 * every other link of the account ends too.
 */
export async function useResetLink(
  trx: Kysely<Database>,
  token: string,
  now: Date,
): Promise<number> {
  const at = now.toISOString()
  const tokenHash = hashToken(token)
  const used = await trx
    .updateTable('reset_links')
    .set({ used_at: at })
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', at)
    .returning('user_id')
    .executeTakeFirst()
  if (!used) {
    const row = await trx
      .selectFrom('reset_links')
      .select('used_at')
      .where('token_hash', '=', tokenHash)
      .executeTakeFirst()
    throw refusal(row)
  }
  await endResetLinks(trx, used.user_id, now)
  return used.user_id
}

/** After a reset (by link or by code), no earlier link of the account works. */
export async function endResetLinks(trx: Kysely<Database>, userId: number, now: Date) {
  await trx
    .updateTable('reset_links')
    .set({ used_at: now.toISOString() })
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .execute()
}
