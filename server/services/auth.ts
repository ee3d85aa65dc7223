import { metrics } from '../metrics'
import type { Kysely } from 'kysely'
import { parsePhoneNumberFromString } from 'libphonenumber-js/min'
import type { NewUserInput } from '../../src/contract/sign-up'
import { INTL_LOCALES, type Locale } from '../../src/contract/common'
import { DeliveryError, type Channel, type Delivery } from '../adapters/delivery'
import type { Clock } from '../clock'
import type { Config } from '../config'
import type { CodePurpose, Database, UserRow } from '../db/schema'
import { ApiError } from '../core/errors'
import { ValidationError } from '../core/errors'
import { t } from '../i18n'
import { errorFields, type Logger } from '../log'
import { CODE_RULES, codeFailure, codeSecret, issueCode, verifyCode, type CodeCheck } from './codes'
import { forgetIdentityFailures } from './attempts'
import { onceWithin } from './rate-limit'
import type { PasswordHasher } from './passwords'
import { deviceOf, newDeviceCookie } from './device-cookie'
import { loginSucceeded, reserveLoginAttempt, type LoginAttempt } from './login-throttle'
import { createSession, pruneSessions, revokeUserSessions } from './sessions'
import { endResetLinks, lookResetLink, newResetLink, RESET_LINK, useResetLink } from './reset-links'
import {
  assertAvailable,
  findUserByEmail,
  findUserByPhone,
  findUserByUsername,
  insertUser,
  isUniqueViolation,
  usernameKey,
} from './users'

/** What the account flows need; the app's request variables carry all of it. */
export interface AuthDeps {
  db: Kysely<Database>
  config: Config
  clock: Clock
  passwords: PasswordHasher
  delivery: Delivery
  logger: Logger
}

export interface RequestMeta {
  locale: Locale
  /** The client address key (IPv6 by its /64): what every limit counts. */
  ip: string | null
  /** The device cookie the browser sent, if any (services/device-cookie.ts). */
  device?: string | undefined
}

/** A new session, and the device cookie the browser keeps for the account's next sign-ins. */
export interface SignedIn {
  token: string
  device: string
}

/** Whether WhatsApp may be sent to this number: CODE_COUNTRIES, because each code costs. */
function assertCodeCountry(deps: AuthDeps, phone: string, locale: Locale) {
  const country = parsePhoneNumberFromString(phone)?.country
  if (country && deps.config.codeCountries.includes(country)) return
  const names = new Intl.DisplayNames([locale], { type: 'region' })
  const countries = new Intl.ListFormat(locale, { type: 'disjunction' }).format(
    deps.config.codeCountries.map((c) => names.of(c) ?? c),
  )
  throw new ValidationError(
    [{ field: 'phone_number', id: 'codes.country', values: { countries } }],
    {},
  )
}

type DeliveryMode = 'await' | 'background' | 'none'

/**
 * Issues a code (429 when a limit says no) and hands it to the channel's sender. With `link`
 * (a password reset of an account), the message also carries the reset link it makes, and
 * goes out even while wrong codes pause the recipient's codes: then with the link alone.
 * Answers whether codes were paused.
 */
async function sendCode(
  deps: AuthDeps,
  req: {
    purpose: CodePurpose
    recipient: string
    channel: Channel
    deliver: DeliveryMode
    link?: (() => Promise<string>) | undefined
    /** Count the send even while the recipient's codes are paused (a reset, with or without an account). */
    whenHeld?: 'refuse' | 'count'
  },
  meta: RequestMeta,
): Promise<{ paused: boolean }> {
  if (req.channel === 'whatsapp') assertCodeCountry(deps, req.recipient, meta.locale)
  const secret = await codeSecret(deps.db, deps.config.codeSecret)
  const { code, paused } = await issueCode(deps.db, {
    limits: deps.config.codeLimits,
    purpose: req.purpose,
    recipient: req.recipient,
    ip: meta.ip,
    now: deps.clock.now(),
    secret,
    whenHeld: req.whenHeld ?? 'refuse',
  })
  metrics.codeSends.inc({ purpose: req.purpose, channel: req.channel })
  if (req.deliver === 'none') return { paused }
  const minutes = CODE_RULES.ttlMs / 60_000
  const link = req.link && (await req.link())
  const linkMinutes = RESET_LINK.ttlMs / 60_000
  const sender = req.channel === 'whatsapp' ? deps.delivery.phone : deps.delivery.email
  const sending = sender.send({
    channel: req.channel,
    to: req.recipient,
    purpose: req.purpose,
    code,
    locale: meta.locale,
    body: !link
      ? t(meta.locale, 'codes.message', { code, minutes })
      : paused
        ? t(meta.locale, 'codes.reset_link_only', { link, linkMinutes })
        : t(meta.locale, 'codes.reset_message', { code, minutes, link, linkMinutes }),
    subject: t(meta.locale, link ? 'codes.reset_subject' : 'codes.mail_subject'),
  })
  if (req.deliver === 'background') {
    sending.catch((err: unknown) =>
      deps.logger.error('code delivery failed', { purpose: req.purpose, ...errorFields(err) }),
    )
    return { paused }
  }
  try {
    await sending
  } catch (err) {
    deps.logger.error('code delivery failed', { purpose: req.purpose, ...errorFields(err) })
    if (err instanceof DeliveryError) throw new ApiError(503, 'codes.delivery_failed')
    throw err
  }
  return { paused }
}

/** The code step's password check, run before any code is looked at. */
async function requirePassword(deps: AuthDeps, user: UserRow, password: string) {
  if (!(await deps.passwords.verify(password, user.password_hash))) {
    throw new ApiError(422, 'auth.failed')
  }
}

/**
 * A code must be right before a password is hashed: a wrong guess then costs a cheap HMAC,
 * not a 128 MiB scrypt. This look counts wrong tries; the transaction that uses the code
 * checks it again.
 */
async function precheckCode(
  deps: AuthDeps,
  purpose: CodePurpose,
  recipient: string,
  code: string,
  meta: Pick<RequestMeta, 'ip'>,
): Promise<void> {
  const secret = await codeSecret(deps.db, deps.config.codeSecret)
  const now = deps.clock.now()
  const check = await deps.db.transaction().execute((trx) =>
    verifyCode(trx, {
      purpose,
      recipient,
      code,
      address: meta.ip,
      now,
      secret,
      consume: false,
    }),
  )
  if (!check.ok) throw await failed(deps, check, recipient, now)
}

const DAY_MS = 24 * 60 * 60_000

/**
 * The error for a failed code check; when that very failure paused the recipient's codes, the
 * account's owner is told first (at most once in 24 hours), by e-mail when the account has one,
 * else by WhatsApp.
 */
async function failed(
  deps: AuthDeps,
  check: Exclude<CodeCheck, { ok: true }>,
  recipient: string,
  now: Date,
): Promise<Error> {
  if (check.reason === 'locked' && check.started) {
    await noticeLock(deps, recipient, check.lockedUntil, now).catch((err: unknown) =>
      deps.logger.error('security notice failed', errorFields(err)),
    )
  }
  return codeFailure(check, now)
}

async function noticeLock(deps: AuthDeps, recipient: string, lockedUntil: string, now: Date) {
  const user = recipient.includes('@')
    ? await findUserByEmail(deps.db, recipient)
    : await findUserByPhone(deps.db, recipient)
  // Nobody to tell: a number or address without an account gets no mail from us.
  if (!user) return
  if (!(await onceWithin(deps.db, { key: `notice:user:${user.id}`, windowMs: DAY_MS, now }))) return
  const until = new Intl.DateTimeFormat(INTL_LOCALES[user.locale], {
    dateStyle: 'medium',
    timeStyle: 'short',
    timeZone: 'UTC',
  }).format(new Date(lockedUntil))
  const [sender, channel, to] = user.email
    ? ([deps.delivery.email, 'email', user.email] as const)
    : ([deps.delivery.phone, 'whatsapp', user.phone_number] as const)
  if (!sender.notify) {
    deps.logger.warn('no way to send a security notice on this channel', { channel })
    return
  }
  const sending = sender.notify({
    channel,
    to,
    locale: user.locale,
    subject: t(user.locale, 'codes.notice_subject'),
    body: t(user.locale, 'codes.notice', { until }),
    until,
  })
  deps.logger.warn('codes paused by wrong tries; owner notified', { userId: user.id, channel })
  // A real sender runs after the reply, as reset codes do; the local outbox is immediate.
  if (sender.kind === 'outbox') await sending
  else
    sending.catch((err: unknown) => deps.logger.error('security notice failed', errorFields(err)))
}

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
  const secret = await codeSecret(deps.db, deps.config.codeSecret)
  const now = deps.clock.now()
  let result
  try {
    result = await deps.db.transaction().execute(async (trx) => {
      const check = await verifyCode(trx, {
        purpose: 'signup',
        recipient: input.phone_number,
        code: input.verification_code,
        address: meta.ip,
        now,
        secret,
        consume: true,
      })
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
  const secret = await codeSecret(deps.db, deps.config.codeSecret)
  const now = deps.clock.now()
  const result = await deps.db.transaction().execute(async (trx) => {
    const check = await verifyCode(trx, {
      purpose: 'login',
      recipient: user.phone_number,
      code: creds.verification_code,
      address: meta.ip,
      now,
      secret,
      consume: true,
    })
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

// ---- password recovery ----------------------------------------------------------------------

/**
 * send/verification-code: the same work and the same reply whether or not the e-mail has an
 * account. A code is made and counted either way; only an account's e-mail gets it, with a
 * reset link (`publicUrl` + `/#/reset-password/<token>`) that works whatever the code's
 * counters say. While wrong codes pause the e-mail's codes the message still goes, with the
 * link alone, so nobody's wrong codes keep the owner from a reset. Real senders run after the
 * reply, so the SMTP round trip does not show in the timing.
 */
export async function sendResetCode(
  deps: AuthDeps,
  email: string,
  meta: RequestMeta & { publicUrl: string },
): Promise<{ paused: boolean }> {
  const user = await findUserByEmail(deps.db, email)
  const deliver: DeliveryMode = !user
    ? 'none'
    : deps.delivery.email.kind === 'outbox'
      ? 'await'
      : 'background'
  const link = user
    ? async () =>
        `${meta.publicUrl}/#/reset-password/${await newResetLink(deps.db, user.id, deps.clock.now())}`
    : undefined
  return sendCode(
    deps,
    { purpose: 'reset', recipient: email, channel: 'email', deliver, link, whenHeld: 'count' },
    meta,
  )
}

/** check/verification-code: looks without using the code up, but wrong tries count. */
export async function checkResetCode(
  deps: AuthDeps,
  email: string,
  code: string,
  meta: Pick<RequestMeta, 'ip'>,
) {
  const secret = await codeSecret(deps.db, deps.config.codeSecret)
  const now = deps.clock.now()
  const check = await deps.db.transaction().execute((trx) =>
    verifyCode(trx, {
      purpose: 'reset',
      recipient: email,
      code,
      address: meta.ip,
      now,
      secret,
      consume: false,
    }),
  )
  if (!check.ok && check.reason === 'locked') throw await failed(deps, check, email, now)
  return check.ok && (await findUserByEmail(deps.db, email)) !== undefined
}

/** reset-password: uses the code, sets the password, signs every device out. */
export async function resetPassword(
  deps: AuthDeps,
  input: { email: string; verification_code: string; password: string },
  meta: Pick<RequestMeta, 'ip'>,
) {
  await precheckCode(deps, 'reset', input.email, input.verification_code, meta)
  const passwordHash = await deps.passwords.hash(input.password)
  const secret = await codeSecret(deps.db, deps.config.codeSecret)
  const now = deps.clock.now()
  const result = await deps.db.transaction().execute(async (trx) => {
    const check = await verifyCode(trx, {
      purpose: 'reset',
      recipient: input.email,
      code: input.verification_code,
      address: meta.ip,
      now,
      secret,
      consume: true,
    })
    if (!check.ok) return check
    const user = await findUserByEmail(trx, input.email)
    if (!user) return { ok: false as const, reason: 'invalid' as const }
    await newPassword(trx, user, passwordHash, now)
    return { ok: true as const }
  })
  if (!result.ok) throw await failed(deps, result, input.email, now)
}

/**
 * A reset's one outcome, by code or by link: the new password, every device signed out, no
 * earlier link working.
 */
async function newPassword(
  trx: Kysely<Database>,
  user: Pick<UserRow, 'id' | 'phone_number' | 'email'>,
  passwordHash: string,
  now: Date,
) {
  await trx
    .updateTable('users')
    .set({ password_hash: passwordHash })
    .where('id', '=', user.id)
    .execute()
  await revokeUserSessions(trx, user.id, now)
  await endResetLinks(trx, user.id, now)
  if (user.email)
    await trx
      .updateTable('verification_codes')
      .set({ consumed_at: now.toISOString() })
      .where('purpose', '=', 'reset')
      .where('recipient', '=', user.email)
      .where('consumed_at', 'is', null)
      .execute()
  // Whoever guessed at the sign-in codes needed the old password: with a new one they
  // cannot go on, so their wrong codes no longer hold the owner's phone.
  await forgetIdentityFailures(trx, 'code', user.phone_number)
}

/**
 * reset-password-link: the e-mailed link's token stands for the code, so the code's counters
 * are not looked at. A cheap look at the token first (no scrypt for a wrong one); using it is
 * the database's once-only UPDATE, in the transaction that sets the password.
 */
export async function resetPasswordByLink(
  deps: AuthDeps,
  input: { token: string; password: string },
) {
  await lookResetLink(deps.db, input.token, deps.clock.now())
  const passwordHash = await deps.passwords.hash(input.password)
  const now = deps.clock.now()
  await deps.db.transaction().execute(async (trx) => {
    const userId = await useResetLink(trx, input.token, now)
    const user = await trx
      .selectFrom('users')
      .select(['id', 'phone_number', 'email'])
      .where('id', '=', userId)
      .executeTakeFirstOrThrow()
    await newPassword(trx, user, passwordHash, now)
  })
}
