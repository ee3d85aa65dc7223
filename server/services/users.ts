import type { Kysely } from 'kysely'
import { PASSWORD_MIN_LENGTH } from '../../src/contract/constants'
import { type Profile } from '../../src/contract/profile'
import { fromMicros } from '../../src/domain/money'
import type { Database, UserRow } from '../db/schema'
import { ValidationError, type FieldMessages, type FieldProblem } from '../core/errors'
import { usernameKey } from '../core/username-key'

export { usernameKey } from '../core/username-key'

/** Labels and format messages of the account fields (see docs/api.md, Accounts and codes). */
export const ACCOUNT_FIELDS: Record<string, FieldMessages> = {
  email: { label: 'field.email', invalid: 'validation.email.invalid' },
  username: { label: 'field.username', invalid: 'validation.username.invalid' },
  phone_number: { label: 'field.phone_number', invalid: 'validation.phone_number.invalid' },
  password: {
    label: 'field.password',
    invalid: 'validation.password.min_length',
    values: { min: PASSWORD_MIN_LENGTH },
  },
  password_confirmation: { label: 'field.password_confirmation' },
  verification_code: { label: 'field.verification_code', invalid: 'validation.code.format' },
  locale: { label: 'field.locale' },
  currency: { label: 'field.currency' },
}

/** Which of username, phone and e-mail another account already has. */
export async function duplicateProblems(
  db: Kysely<Database>,
  user: { username: string; phone_number: string; email: string | null },
): Promise<FieldProblem[]> {
  const key = usernameKey(user.username)
  const rows = await db
    .selectFrom('users')
    .select(['username_key', 'phone_number', 'email'])
    .where((eb) =>
      eb.or([
        eb('username_key', '=', key),
        eb('phone_number', '=', user.phone_number),
        ...(user.email ? [eb('email', '=', user.email)] : []),
      ]),
    )
    .execute()
  const problems: FieldProblem[] = []
  if (user.email && rows.some((r) => r.email === user.email)) {
    problems.push({ field: 'email', id: 'validation.email.taken' })
  }
  if (rows.some((r) => r.username_key === key)) {
    problems.push({ field: 'username', id: 'validation.username.taken' })
  }
  if (rows.some((r) => r.phone_number === user.phone_number)) {
    problems.push({ field: 'phone_number', id: 'validation.phone_number.taken' })
  }
  return problems
}

export async function assertAvailable(
  db: Kysely<Database>,
  user: { username: string; phone_number: string; email: string | null },
): Promise<void> {
  const problems = await duplicateProblems(db, user)
  if (problems.length > 0) throw new ValidationError(problems, ACCOUNT_FIELDS)
}

/** A unique index refused the row (someone took the name a moment ago). */
export function isUniqueViolation(err: unknown): boolean {
  if (!(err instanceof Error)) return false
  const code = (err as { code?: unknown }).code
  return code === '23505' || /UNIQUE constraint failed/i.test(err.message)
}

export type CreateUser = Pick<
  UserRow,
  'username' | 'phone_number' | 'email' | 'password_hash' | 'type' | 'currency' | 'locale'
> & { balance?: bigint }

export async function insertUser(
  db: Kysely<Database>,
  user: CreateUser,
  now: Date,
): Promise<UserRow> {
  return db
    .insertInto('users')
    .values({
      ...user,
      username_key: usernameKey(user.username),
      api_token: null,
      api_token_hash: null,
      ip_whitelist: null,
      created_at: now.toISOString(),
    })
    .returningAll()
    .executeTakeFirstOrThrow()
}

export function findUserByUsername(
  db: Kysely<Database>,
  username: string,
): Promise<UserRow | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where('username_key', '=', usernameKey(username))
    .executeTakeFirst()
}

export function findUserByPhone(db: Kysely<Database>, phone: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('phone_number', '=', phone).executeTakeFirst()
}

export function findUserByEmail(db: Kysely<Database>, email: string): Promise<UserRow | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where('email', '=', email.toLowerCase())
    .executeTakeFirst()
}

/**
 * GET profile's view of a user: money as a decimal in the user's currency. `apiToken` is the
 * token in clear (services/api-tokens.ts, revealApiToken): the row holds only a sealed copy.
 */
export function toProfile(user: UserRow, apiToken: string | null): Profile {
  return {
    username: user.username,
    email: user.email,
    balance: fromMicros(user.balance),
    currency: user.currency,
    locale: user.locale,
    phone_number: user.phone_number,
    new_notifications_count: user.new_notifications_count,
    token: apiToken,
    ip_whitelist: user.ip_whitelist,
    type: user.type,
  }
}
