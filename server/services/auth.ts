import type { NewUserInput } from '../../src/contract/sign-up'
import type { UserRow } from '../db/schema'
import { ApiError } from '../core/errors'
import { deviceOf, newDeviceCookie } from './device-cookie'
import { loginSucceeded, reserveLoginAttempt, type LoginAttempt } from './login-throttle'
import { createSession, pruneSessions } from './sessions'
import {
  assertAvailable,
  findUserByPhone,
  findUserByUsername,
  insertUser,
  isUniqueViolation,
  usernameKey,
} from './users'

/** What the account flows need; the app's request variables carry all of it. */
import {
  failed,
  codeCheck,
  precheckCode,
  requirePassword,
  sendCode,
  type AuthDeps,
  type RequestMeta,
  type SignedIn,
} from './auth-codes'

// ---- sign-up ------------------------------------------------------------------------------

/** signup?validate=1: the details are free; a code goes to the phone. */
export async function startSignup(deps: AuthDeps, input: NewUserInput, meta: RequestMeta) {
  await assertAvailable(deps.db, input)
  await sendCode(
    deps,
    { purpose: 'signup', recipient: input.phone_number, channel: 'whatsapp', deliver: 'await' },
    meta,
  )
  return { phone_number: input.phone_number }
}

/** signup?auth=1: the code proves the phone; the account (always a customer) and a session. */
export async function completeSignup(
  deps: AuthDeps,
  input: NewUserInput & { verification_code: string },
  meta: RequestMeta,
): Promise<SignedIn> {
  await assertAvailable(deps.db, input)
  await precheckCode(deps, 'signup', input.phone_number, input.verification_code, meta)
  const passwordHash = await deps.passwords.hash(input.password)
  const { now, verify } = await codeCheck(
    deps,
    'signup',
    input.phone_number,
    input.verification_code,
    meta,
  )
  let result
  try {
    result = await deps.db.transaction().execute(async (trx) => {
      const check = await verify(trx, { consume: true })
      if (!check.ok) return check
      const user = await insertUser(
        trx,
        {
          username: input.username,
          phone_number: input.phone_number,
          email: input.email,
          password_hash: passwordHash,
          // Company accounts are never self-service: only the operator makes them.
          type: 'CUSTOMER',
          currency: 'USD',
          locale: meta.locale,
        },
        now,
      )
      return {
        ok: true as const,
        userId: user.id,
        token: await createSession(trx, user.id, { fcmToken: null, now }),
      }
    })
  } catch (err) {
    // Someone registered the same name between our check and the insert.
    if (isUniqueViolation(err)) await assertAvailable(deps.db, input)
    throw err
  }
  if (!result.ok) throw await failed(deps, result, input.phone_number, now)
  await pruneSessions(deps.db, deps.config.sessions, now)
  return {
    token: result.token,
    device: await newDeviceCookie(deps.db, deps.config.tokenSecret, result.userId),
  }
}

// ---- login --------------------------------------------------------------------------------

export interface Credentials {
  username?: string | undefined
  /** E.164, or undefined when the number given was not a valid one. */
  phone_number?: string | undefined
  password: string
}

/**
 * The user with these credentials, or 422 with one message for every way it can be wrong.
 * An unknown user costs the same scrypt work as a wrong password. Failed checks are counted
 * per identity tried and per address, and past the limits refused (429) before any hashing.
 */
async function authenticate(
  deps: AuthDeps,
  creds: Credentials,
  meta: Pick<RequestMeta, 'ip' | 'device'>,
): Promise<{ user: UserRow; device: string | null }> {
  const user = creds.username
    ? await findUserByUsername(deps.db, creds.username)
    : creds.phone_number
      ? await findUserByPhone(deps.db, creds.phone_number)
      : undefined
  // A device that signed in to this account before is throttled on its own.
  const device =
    user && meta.device
      ? await deviceOf(deps.db, deps.config.tokenSecret, meta.device, user.id)
      : null
  const attempt: LoginAttempt = {
    identity: creds.username
      ? `user:${usernameKey(creds.username)}`
      : creds.phone_number
        ? `phone:${creds.phone_number}`
        : null,
    ip: meta.ip,
    now: deps.clock.now(),
    device,
  }
  const reservation = await reserveLoginAttempt(deps.db, deps.config.loginLimits, attempt)
  if (!user) {
    await deps.passwords.verifyNobody(creds.password)
    throw new ApiError(422, 'auth.failed')
  }
  await requirePassword(deps, user, creds.password)
  await loginSucceeded(deps.db, reservation)
  // Said only to whoever knows the password, so it tells a guesser nothing.
  // 422 like a wrong password, so the sign-in form shows it (the storefront treats 403 as a page).
  if (user.disabled_at !== null) throw new ApiError(422, 'auth.disabled')
  return { user, device: device === null ? null : meta.device! }
}

/** login?check=1 (and its resend): right password, so a code goes to the account's phone. */
export async function checkLogin(deps: AuthDeps, creds: Credentials, meta: RequestMeta) {
  const { user } = await authenticate(deps, creds, meta)
  await sendCode(
    deps,
    { purpose: 'login', recipient: user.phone_number, channel: 'whatsapp', deliver: 'await' },
    meta,
  )
  return { phone_number: user.phone_number }
}

/** login?auth=1: password again, then the code; a new session. */
export async function completeLogin(
  deps: AuthDeps,
  creds: Credentials & { verification_code: string; fcm_token?: string | undefined },
  meta: Pick<RequestMeta, 'ip' | 'device'>,
): Promise<SignedIn> {
  const { user, device } = await authenticate(deps, creds, meta)
  const { now, verify } = await codeCheck(
    deps,
    'login',
    user.phone_number,
    creds.verification_code,
    meta,
  )
  const result = await deps.db.transaction().execute(async (trx) => {
    const check = await verify(trx, { consume: true })
    if (!check.ok) return check
    const token = await createSession(trx, user.id, { fcmToken: creds.fcm_token ?? null, now })
    return { ok: true as const, token }
  })
  if (!result.ok) throw await failed(deps, result, user.phone_number, now)
  await pruneSessions(deps.db, deps.config.sessions, now)
  if (deps.passwords.needsRehash(user.password_hash)) {
    // Hashed under weaker settings than today's: upgrade while we know the password.
    const upgraded = await deps.passwords.hash(creds.password)
    await deps.db
      .updateTable('users')
      .set({ password_hash: upgraded })
      .where('id', '=', user.id)
      .execute()
  }
  // The device keeps its cookie (its failures stay its own); a new device gets one.
  return {
    token: result.token,
    device: device ?? (await newDeviceCookie(deps.db, deps.config.tokenSecret, user.id)),
  }
}
