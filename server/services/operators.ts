import { createHmac, randomBytes, randomInt } from 'node:crypto'
import type { Kysely } from 'kysely'
import { Secret, TOTP } from 'otpauth'
import type { OperatorRole } from '../../src/contract/console'
import type { Database, OperatorRow } from '../db/schema'
import { inTransaction } from '../db/transaction'
import { ApiError } from '../core/errors'
import { auditOrigin, recordAudit } from './audit'
import type { PasswordHasher } from './passwords'
import { seal, serverKey, unseal } from './api-tokens'
import { hashToken } from './sessions'
import { usernameKey } from '../core/username-key'

/*
 * Console accounts (docs/api.md, Console): owners and operators, apart from customers. They
 * sign in with a password and a second factor: the 6 digits of a TOTP authenticator (otpauth,
 * RFC 6238: 30-second steps, one step either side for a phone's clock), or one of ten recovery
 * codes. The TOTP secret is kept sealed (AES-256-GCM under a key from TOKEN_SECRET, as the API
 * tokens and the code stock are); recovery codes only as keyed hashes. Everything that must
 * happen once is one guarded UPDATE: a recovery code's use (`used_at is null`), a TOTP code's
 * (`totp_step` below its step), so two tries at the same moment cannot both pass.
 */

/** Unused this long, a console session ends. */
export const CONSOLE_IDLE_MS = 30 * 60_000
/** However used, a console session ends this long after its sign-in. */
export const CONSOLE_MAX_MS = 12 * 60 * 60_000
/** last_used_at is written at most this often. */
const TOUCH_EVERY_MS = 60_000
export const RECOVERY_CODE_COUNT = 10

const SEAL_INFO = 'wallet-store operator totp v1'
const HASH_INFO = 'wallet-store operator recovery code v1'
const associated = (operatorId: number) => `operator:${operatorId}`
/** Recovery codes are written in these (no 0/O, 1/I/L): `abcde-fghjk`. */
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789'

/** The actor of a console write in the audit log. */
export const consoleActor = (operator: Pick<OperatorRow, 'username'>) =>
  `console:${operator.username}`

function totpOf(secret: Secret, label: string, issuer: string) {
  return new TOTP({ issuer, label, secret, algorithm: 'SHA1', digits: 6, period: 30 })
}

const canonicalRecovery = (code: string) => code.replace(/[-\s]/g, '').toLowerCase()

async function recoveryHasher(db: Kysely<Database>, configured: string | undefined) {
  const key = await serverKey(db, configured, HASH_INFO)
  return (code: string) => createHmac('sha256', key).update(canonicalRecovery(code)).digest('hex')
}

function newRecoveryCode(): string {
  const pick = () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]
  const half = () => Array.from({ length: 5 }, pick).join('')
  return `${half()}-${half()}`
}

export function findOperator(db: Kysely<Database>, username: string) {
  return db
    .selectFrom('operators')
    .selectAll()
    .where('username_key', '=', usernameKey(username))
    .executeTakeFirst()
}

/** A new console account, without its second factor yet (enrolSecondFactor). */
export async function createOperator(
  db: Kysely<Database>,
  passwords: PasswordHasher,
  input: { username: string; password: string; role: OperatorRole },
  now: Date,
): Promise<OperatorRow> {
  return db
    .insertInto('operators')
    .values({
      username: input.username,
      username_key: usernameKey(input.username),
      role: input.role,
      password_hash: await passwords.hash(input.password),
      totp_sealed: null,
      totp_step: null,
      created_at: now.toISOString(),
      disabled_at: null,
    })
    .returningAll()
    .executeTakeFirstOrThrow()
}

export interface Enrolment {
  /** otpauth://totp/… for the authenticator app (a QR code of it, or typed in). */
  uri: string
  /** Shown once: each signs in once, in place of the authenticator's code. */
  recoveryCodes: string[]
}

/**
 * A new TOTP secret and ten new recovery codes for the operator (first enrolment, or a lost
 * phone): the old secret and codes stop working, and so do the operator's sessions.
 */
export async function enrolSecondFactor(
  db: Kysely<Database>,
  configured: string | undefined,
  operator: OperatorRow,
  { issuer, actor, now }: { issuer: string; actor: string; now: Date },
): Promise<Enrolment> {
  const secret = new Secret({ size: 20 })
  const key = await serverKey(db, configured, SEAL_INFO)
  const hash = await recoveryHasher(db, configured)
  const recoveryCodes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode)
  await inTransaction(db, async (trx) => {
    await trx
      .updateTable('operators')
      .set({ totp_sealed: seal(key, associated(operator.id), secret.base32), totp_step: null })
      .where('id', '=', operator.id)
      .execute()
    await trx.deleteFrom('operator_recovery_codes').where('operator_id', '=', operator.id).execute()
    await trx
      .insertInto('operator_recovery_codes')
      .values(
        recoveryCodes.map((code) => ({
          operator_id: operator.id,
          code_hash: hash(code),
          used_at: null,
        })),
      )
      .execute()
    await revokeOperatorSessions(trx, operator.id, now)
    await recordAudit(trx, {
      actor,
      action: 'console.second_factor',
      details: { operator: operator.username },
      now,
    })
  })
  return { uri: totpOf(secret, operator.username, issuer).toString(), recoveryCodes }
}

/**
 * The time step whose code `code` is for the operator's secret, within one step of `now`,
 * or null.
 */
function totpStep(sealed: string, key: Buffer, operatorId: number, code: string, now: Date) {
  const base32 = unseal(key, associated(operatorId), sealed)
  if (base32 === null) return null
  const totp = totpOf(Secret.fromBase32(base32), '', '')
  const delta = totp.validate({ token: code, timestamp: now.getTime(), window: 1 })
  return delta === null ? null : totp.counter({ timestamp: now.getTime() }) + delta
}

/** Takes the TOTP step: false when its code (or a later one) already signed in. */
async function takeStep(db: Kysely<Database>, operatorId: number, step: number) {
  const row = await db
    .updateTable('operators')
    .set({ totp_step: step })
    .where('id', '=', operatorId)
    .where((eb) => eb.or([eb('totp_step', 'is', null), eb('totp_step', '<', step)]))
    .returning('id')
    .executeTakeFirst()
  return row !== undefined
}

/** Uses up a recovery code of the operator's: false when it is not theirs or was used. */
async function takeRecoveryCode(
  db: Kysely<Database>,
  operatorId: number,
  codeHash: string,
  now: Date,
) {
  const row = await db
    .updateTable('operator_recovery_codes')
    .set({ used_at: now.toISOString() })
    .where('operator_id', '=', operatorId)
    .where('code_hash', '=', codeHash)
    .where('used_at', 'is', null)
    .returning('id')
    .executeTakeFirst()
  return row !== undefined
}

export interface ConsoleSignIn {
  operator: OperatorRow
  /** The session cookie's value; only its SHA-256 is stored. */
  token: string
}

/**
 * Password, then the second factor (6 digits: TOTP; otherwise a recovery code). Any failure
 * is the same 401, whichever part was wrong; an unknown name costs a password hash too.
 */
export async function consoleSignIn(
  db: Kysely<Database>,
  { passwords, tokenSecret }: { passwords: PasswordHasher; tokenSecret: string | undefined },
  input: { username: string; password: string; code: string },
  { address, now }: { address: string; now: Date },
): Promise<ConsoleSignIn> {
  const failed = new ApiError(401, 'console.failed')
  const operator = await findOperator(db, input.username)
  if (!operator) {
    await passwords.verifyNobody(input.password)
    throw failed
  }
  const passwordOk = await passwords.verify(input.password, operator.password_hash)
  if (!passwordOk || operator.disabled_at !== null || operator.totp_sealed === null) throw failed
  const code = input.code.trim()
  let by: 'totp' | 'recovery code'
  if (/^\d{6}$/.test(code)) {
    const key = await serverKey(db, tokenSecret, SEAL_INFO)
    const step = totpStep(operator.totp_sealed, key, operator.id, code, now)
    if (step === null || !(await takeStep(db, operator.id, step))) throw failed
    by = 'totp'
  } else {
    const hash = await recoveryHasher(db, tokenSecret)
    if (!(await takeRecoveryCode(db, operator.id, hash(code), now))) throw failed
    by = 'recovery code'
  }
  const token = randomBytes(32).toString('base64url')
  const at = now.toISOString()
  await inTransaction(db, async (trx) => {
    await trx
      .insertInto('operator_sessions')
      .values({
        operator_id: operator.id,
        token_hash: hashToken(token),
        address,
        created_at: at,
        last_used_at: at,
        revoked_at: null,
      })
      .execute()
    // Before the session exists, the sign-in's own address is where it came from.
    await auditOrigin.run({ address: address || null }, () =>
      recordAudit(trx, {
        actor: consoleActor(operator),
        action: 'console.sign_in',
        details: { by, address },
        now,
      }),
    )
    // The sessions nobody can use any more.
    await trx
      .deleteFrom('operator_sessions')
      .where((eb) =>
        eb.or([
          eb('last_used_at', '<=', new Date(now.getTime() - CONSOLE_IDLE_MS).toISOString()),
          eb('created_at', '<=', new Date(now.getTime() - CONSOLE_MAX_MS).toISOString()),
        ]),
      )
      .execute()
  })
  return { operator, token }
}

/**
 * The live console session of a cookie, with its operator: not revoked, used within the idle
 * time, within its maximum age, the operator not disabled.
 */
export async function findOperatorSession(
  db: Kysely<Database>,
  token: string,
  now: Date,
): Promise<{ sessionId: number; operator: OperatorRow } | undefined> {
  const row = await db
    .selectFrom('operator_sessions')
    .innerJoin('operators', 'operators.id', 'operator_sessions.operator_id')
    .selectAll('operators')
    .select([
      'operator_sessions.id as session_id',
      'operator_sessions.created_at as session_created_at',
      'operator_sessions.last_used_at as session_last_used_at',
    ])
    .where('operator_sessions.token_hash', '=', hashToken(token))
    .where('operator_sessions.revoked_at', 'is', null)
    .executeTakeFirst()
  if (!row) return undefined
  const { session_id, session_created_at, session_last_used_at, ...operator } = row
  const nowMs = now.getTime()
  if (
    nowMs - Date.parse(session_last_used_at) >= CONSOLE_IDLE_MS ||
    nowMs - Date.parse(session_created_at) >= CONSOLE_MAX_MS ||
    operator.disabled_at !== null
  )
    return undefined
  if (nowMs - Date.parse(session_last_used_at) >= TOUCH_EVERY_MS) {
    await db
      .updateTable('operator_sessions')
      .set({ last_used_at: now.toISOString() })
      .where('id', '=', session_id)
      .execute()
  }
  return { sessionId: session_id, operator }
}

export async function revokeOperatorSession(db: Kysely<Database>, sessionId: number, now: Date) {
  await db
    .updateTable('operator_sessions')
    .set({ revoked_at: now.toISOString() })
    .where('id', '=', sessionId)
    .where('revoked_at', 'is', null)
    .execute()
}

/** Sign-out everywhere: every session of the operator ends. */
export async function revokeOperatorSessions(db: Kysely<Database>, operatorId: number, now: Date) {
  await db
    .updateTable('operator_sessions')
    .set({ revoked_at: now.toISOString() })
    .where('operator_id', '=', operatorId)
    .where('revoked_at', 'is', null)
    .execute()
}

export function listOperators(db: Kysely<Database>) {
  return db.selectFrom('operators').selectAll().orderBy('id').execute()
}
