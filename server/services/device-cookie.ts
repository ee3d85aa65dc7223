import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import type { Kysely } from 'kysely'
import type { Database } from '../db/schema'
import { serverKey } from './api-tokens'

/*
 * Device cookies (OWASP, "Slow Down Online Guessing Attacks with Device Cookies"): a browser
 * that signed in to an account gets a signed cookie naming the account and a random nonce. A
 * sign-in that brings a valid one for the account it names is throttled on its own (the
 * device's failures, services/login-throttle.ts), so failures from anywhere else, however many,
 * never slow the owner's device; everyone else shares the account's throttle. The cookie holds
 * no secret of the account: only the server's signature, which nobody else can make.
 */

export const DEVICE_COOKIE = 'device'
/** How long a browser keeps it: a year after its last sign-in there. */
export const DEVICE_COOKIE_MAX_AGE_S = 365 * 24 * 60 * 60

const VERSION = 'v1'

const keys = new WeakMap<Kysely<Database>, Map<string | undefined, Promise<Buffer>>>()

/** The HMAC key of device cookies: from TOKEN_SECRET (or the generated secret), its own label. */
function deviceKey(db: Kysely<Database>, configured: string | undefined): Promise<Buffer> {
  let byDb = keys.get(db)
  if (!byDb) keys.set(db, (byDb = new Map()))
  let key = byDb.get(configured)
  if (!key) {
    key = serverKey(db, configured, 'wallet-store device cookie v1')
    byDb.set(configured, key)
  }
  return key
}

const mac = (key: Buffer, body: string) =>
  createHmac('sha256', key).update(body).digest('base64url')

/** A new device cookie's value for the account: `v1.<user id>.<nonce>.<signature>`. */
export async function newDeviceCookie(
  db: Kysely<Database>,
  configured: string | undefined,
  userId: number,
): Promise<string> {
  const body = `${VERSION}.${userId}.${randomBytes(16).toString('base64url')}`
  return `${body}.${mac(await deviceKey(db, configured), body)}`
}

/** The device's nonce when `value` is a cookie this server signed for `userId`, else null. */
export async function deviceOf(
  db: Kysely<Database>,
  configured: string | undefined,
  value: string | undefined,
  userId: number,
): Promise<string | null> {
  const parts = value?.split('.')
  if (parts?.length !== 4 || parts[0] !== VERSION || parts[1] !== String(userId)) return null
  const body = parts.slice(0, 3).join('.')
  const given = Buffer.from(parts[3]!)
  const expected = Buffer.from(mac(await deviceKey(db, configured), body))
  return given.length === expected.length && timingSafeEqual(given, expected) ? parts[2]! : null
}
