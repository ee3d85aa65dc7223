import { metrics } from '../metrics'
import type { Kysely } from 'kysely'
import { parsePhoneNumberFromString } from 'libphonenumber-js/min'
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
import { onceWithin } from './rate-limit'
import type { PasswordHasher } from './passwords'
import { RESET_LINK } from './reset-links'
import { findUserByEmail, findUserByPhone } from './users'

/** What the account flows need; the app's request variables carry all of it. */

/*
 * What the account flows share: their dependencies, and the one-time codes they send and check
 * (a code per purpose and recipient, its wrong tries counted, a lock that tells the owner).
 */

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

export type DeliveryMode = 'await' | 'background' | 'none'

/**
 * Issues a code (429 when a limit says no) and hands it to the channel's sender. With `link`
 * (a password reset of an account), the message also carries the reset link it makes, and
 * goes out even while wrong codes pause the recipient's codes: then with the link alone.
 * Answers whether codes were paused.
 */
export async function sendCode(
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
export async function requirePassword(deps: AuthDeps, user: UserRow, password: string) {
  if (!(await deps.passwords.verify(password, user.password_hash))) {
    throw new ApiError(422, 'auth.failed')
  }
}

/**
 * A code must be right before a password is hashed: a wrong guess then costs a cheap HMAC,
 * not a 128 MiB scrypt. This look counts wrong tries; the transaction that uses the code
 * checks it again.
 */
export async function precheckCode(
  deps: AuthDeps,
  purpose: CodePurpose,
  recipient: string,
  code: string,
  meta: Pick<RequestMeta, 'ip'>,
): Promise<void> {
  const { now, verify } = await codeCheck(deps, purpose, recipient, code, meta)
  const check = await deps.db.transaction().execute((trx) => verify(trx, { consume: false }))
  if (!check.ok) throw await failed(deps, check, recipient, now)
}

/**
 * The check of one request's code, for `verify` inside the transaction that uses the code (or
 * only looks, `consume: false`); `now` is the request's moment for what the transaction writes.
 */
export async function codeCheck(
  deps: AuthDeps,
  purpose: CodePurpose,
  recipient: string,
  code: string,
  meta: Pick<RequestMeta, 'ip'>,
) {
  const secret = await codeSecret(deps.db, deps.config.codeSecret)
  const now = deps.clock.now()
  const verify = (trx: Kysely<Database>, { consume }: { consume: boolean }) =>
    verifyCode(trx, { purpose, recipient, code, address: meta.ip, now, secret, consume })
  return { now, verify }
}

const DAY_MS = 24 * 60 * 60_000

/**
 * The error for a failed code check; when that very failure paused the recipient's codes, the
 * account's owner is told first (at most once in 24 hours), by e-mail when the account has one,
 * else by WhatsApp.
 */
export async function failed(
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
