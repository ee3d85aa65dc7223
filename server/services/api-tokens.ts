import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto'
import type { Kysely } from 'kysely'
import type { ApiTokenPayload } from '../../src/contract/token'
import { checkWhitelist } from '../../src/domain/ip-whitelist'
import type { Database, UserRow } from '../db/schema'
import { ValidationError, type FieldMessages } from '../core/errors'
import { hashToken } from './sessions'
import { storedSecret } from './stored-secret'
import { isUniqueViolation } from './users'

/*
 * API tokens (POST user/token). The storefront makes the token; the server keeps two things of
 * it on the user's row: its SHA-256 (`api_token_hash`, unique), which is how a call made with
 * the token finds the account in one indexed query, and a copy sealed with AES-256-GCM under a
 * server key (`api_token`), which is how its owner sees it again in the token dialog. The key
 * is TOKEN_SECRET, or one generated once and kept in the settings table. A database dump alone
 * therefore gives neither a usable token nor a way to read one.
 */

export const TOKEN_FIELDS: Record<string, FieldMessages> = {
  token: { label: 'field.token' },
  ip_whitelist: { label: 'field.ip_whitelist' },
}

const SECRET_SETTING = 'api_token_secret'
/** The version of the sealed format; a new one would get `v2.` and both would be read. */
const SEALED_PREFIX = 'v1.'
const IV_BYTES = 12
const TAG_BYTES = 16

const derived = new Map<string, Buffer>()

const TOKEN_KEY_INFO = 'wallet-store api token v1'

/** A 256-bit key for one use (`info`) from a secret: HKDF, never the secret itself. */
function keyFrom(secret: string, info: string): Buffer {
  let key = derived.get(`${info}\0${secret}`)
  if (!key) {
    key = Buffer.from(hkdfSync('sha256', secret, '', info, 32))
    derived.set(`${info}\0${secret}`, key)
  }
  return key
}

/**
 * A key of the server's for one use (`info`: the API tokens' seal, the device cookies'
 * signature): from TOKEN_SECRET when set (production requires it), otherwise from a random
 * secret generated once and kept in the settings table, so every instance agrees.
 */
export function serverKey(
  db: Kysely<Database>,
  configured: string | undefined,
  info: string,
): Promise<Buffer> {
  if (configured) return Promise.resolve(keyFrom(configured, info))
  return storedSecret(db, SECRET_SETTING).then((s) => keyFrom(s, info))
}

/** The key that seals API tokens. */
export const tokenKey = (db: Kysely<Database>, configured: string | undefined) =>
  serverKey(db, configured, TOKEN_KEY_INFO)

/**
 * A secret sealed with AES-256-GCM under `key`, bound to `associated` (what it belongs to, which
 * is authenticated with it: a sealed value moved to another row does not open). Used for the
 * API tokens and the code stock's codes (services/stock.ts).
 */
export function seal(key: Buffer, associated: string, clear: string): string {
  const iv = randomBytes(IV_BYTES)
  const cipher = createCipheriv('aes-256-gcm', key, iv)
  cipher.setAAD(Buffer.from(associated))
  const sealed = Buffer.concat([cipher.update(clear, 'utf8'), cipher.final()])
  return SEALED_PREFIX + Buffer.concat([iv, sealed, cipher.getAuthTag()]).toString('base64url')
}

/** The secret in clear, or null when it was sealed under another key, for another row, or altered. */
export function unseal(key: Buffer, associated: string, sealed: string): string | null {
  if (!sealed.startsWith(SEALED_PREFIX)) return null
  const bytes = Buffer.from(sealed.slice(SEALED_PREFIX.length), 'base64url')
  if (bytes.length <= IV_BYTES + TAG_BYTES) return null
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, IV_BYTES))
    decipher.setAAD(Buffer.from(associated))
    decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES))
    const clear = Buffer.concat([
      decipher.update(bytes.subarray(IV_BYTES, bytes.length - TAG_BYTES)),
      decipher.final(),
    ])
    return clear.toString('utf8')
  } catch {
    return null
  }
}

/** The account a sealed token belongs to is part of what is authenticated: rows cannot swap. */
const associated = (userId: number) => `user:${userId}`

const sealToken = (key: Buffer, userId: number, token: string) =>
  seal(key, associated(userId), token)

/** The token in clear, or null when the copy was sealed under another key (or altered). */
const openToken = (key: Buffer, userId: number, sealed: string) =>
  unseal(key, associated(userId), sealed)

/** The user's API token in clear for the profile, or null when there is none to show. */
export async function revealApiToken(
  db: Kysely<Database>,
  configured: string | undefined,
  user: Pick<UserRow, 'id' | 'api_token'>,
): Promise<string | null> {
  if (user.api_token === null) return null
  return openToken(await tokenKey(db, configured), user.id, user.api_token)
}

/**
 * Saves a user's token and whitelist (the token's shape is checked by the contract). A bad
 * whitelist line is refused with its number and nothing is saved; an empty whitelist saves the
 * token switched off. Returns what was saved, the whitelist normalised one entry a line.
 */
export async function saveApiToken(
  db: Kysely<Database>,
  configured: string | undefined,
  userId: number,
  payload: ApiTokenPayload,
): Promise<{ token: string; ip_whitelist: string }> {
  const checked = checkWhitelist(payload.ip_whitelist)
  if (!checked.ok) {
    const { problem } = checked
    throw new ValidationError(
      [
        problem.kind === 'line'
          ? {
              field: 'ip_whitelist',
              id: 'token.whitelist.line',
              values: { line: problem.line, text: problem.text.slice(0, 64) },
            }
          : problem.kind === 'too_many'
            ? {
                field: 'ip_whitelist',
                id: 'token.whitelist.too_many',
                values: { max: problem.max },
              }
            : { field: 'ip_whitelist', id: 'token.whitelist.everyone' },
      ],
      TOKEN_FIELDS,
    )
  }
  const whitelist = checked.lines.join('\n')
  const key = await tokenKey(db, configured)
  try {
    await db
      .updateTable('users')
      .set({
        api_token: sealToken(key, userId, payload.token),
        api_token_hash: hashToken(payload.token),
        ip_whitelist: whitelist,
      })
      .where('id', '=', userId)
      .execute()
  } catch (err) {
    // Another account holds exactly this token: it must not open two accounts, and the answer
    // is that of any token that is not valid, so saving tokens tells nobody which exist (and
    // the route lets each account save only a few an hour).
    if (isUniqueViolation(err))
      throw new ValidationError([{ field: 'token', id: 'validation.invalid' }], TOKEN_FIELDS)
    throw err
  }
  return { token: payload.token, ip_whitelist: whitelist }
}

/** The live account an API token belongs to: one indexed query, a disabled account is none. */
export async function findApiTokenOwner(
  db: Kysely<Database>,
  token: string,
): Promise<UserRow | undefined> {
  const user = await db
    .selectFrom('users')
    .selectAll()
    .where('api_token_hash', '=', hashToken(token))
    .executeTakeFirst()
  return user && user.disabled_at === null ? user : undefined
}
