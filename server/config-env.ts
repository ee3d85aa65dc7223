import { readFileSync } from 'node:fs'
import { getCountries, type CountryCode } from 'libphonenumber-js/min'
import * as v from 'valibot'
import { bscAddress, isTronAddress } from './adapters/chains/address'
import { isTimeZone } from './services/dates'
import { RECEIPT_MAX_BYTES } from '../src/contract/wallet'

/*
 * The environment variables the server reads (README, Configuration), each checked on its own:
 * its type, range and default. config.ts checks the ones that go together and builds the Config.
 */

export const LOG_LEVELS = ['debug', 'info', 'warn', 'error', 'silent'] as const
export type LogLevel = (typeof LOG_LEVELS)[number]

const KNOWN_COUNTRIES = new Set<string>(getCountries())

// Unset and empty mean the same thing, so `FOO=` in an .env file falls back to the default.
// (A union rather than v.optional: every key is always present in the input.)
const optionalText = v.pipe(
  v.union([v.string(), v.undefined()]),
  v.transform((s) => s?.trim() || undefined),
)

/** One of the Firebase web app's settings: letters, digits and `-_.:`, as the console shows them. */
const firebaseWeb = (name: string) =>
  v.pipe(
    optionalText,
    v.check(
      (s) => s === undefined || /^[\w.:-]{1,200}$/.test(s),
      `${name} must be the value the Firebase console shows (letters, digits, - _ . :)`,
    ),
  )

const isOrigin = (s: string) => {
  try {
    const url = new URL(s)
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.origin === s
  } catch {
    return false
  }
}

const originList = (name: string) =>
  v.pipe(
    optionalText,
    v.transform((s) => (s ? s.split(/[\s,]+/).filter(Boolean) : [])),
    v.check(
      (list) => list.every(isOrigin),
      `${name} must be a comma-separated list of origins like https://shop.example.com (scheme and host, no path or trailing slash)`,
    ),
  )

const FLAG_VALUES: Record<string, boolean> = {
  '1': true,
  true: true,
  yes: true,
  on: true,
  '0': false,
  false: false,
  no: false,
  off: false,
}

/** An on/off setting: 1/true/yes/on or 0/false/no/off; unset is off. */
const flag = (name: string) =>
  v.pipe(
    optionalText,
    v.transform((s) => (s === undefined ? false : FLAG_VALUES[s.toLowerCase()])),
    v.check((b) => b !== undefined, `${name} must be 1 or 0 (or true/false)`),
    v.transform((b) => b === true),
  )

const integer = (name: string, min: number, max: number, fallback: number) =>
  v.pipe(
    optionalText,
    v.transform((s) => (s === undefined ? fallback : Number(s))),
    v.check(
      (n) => Number.isInteger(n) && n >= min && n <= max,
      `${name} must be a whole number from ${min} to ${max}`,
    ),
  )

const httpUrl = (name: string) =>
  v.pipe(
    optionalText,
    v.check(
      (s) => s === undefined || /^https?:\/\/[^/]/.test(s),
      `${name} must start with http:// or https://`,
    ),
    v.transform((s) => s?.replace(/\/+$/, '')),
  )

export const EnvSchema = v.object({
  PORT: integer('PORT', 0, 65535, 8080),
  INSTANCES: integer('INSTANCES', 1, 64, 1),
  HOST: v.pipe(
    optionalText,
    v.transform((s) => s ?? '0.0.0.0'),
  ),
  DATABASE_URL: v.pipe(
    optionalText,
    v.check(
      (s) => s === undefined || /^postgres(ql)?:\/\//.test(s),
      'DATABASE_URL must start with postgres:// or postgresql:// (leave it empty to use SQLite)',
    ),
  ),
  SQLITE_PATH: v.pipe(
    optionalText,
    v.transform((s) => s ?? 'data/store.db'),
  ),
  SQLITE_LOCK_WAIT_MS: integer('SQLITE_LOCK_WAIT_MS', 10, 60_000, 5000),
  SQLITE_SYNCHRONOUS: v.pipe(
    optionalText,
    v.transform((s) => (s ?? 'FULL').toUpperCase()),
    v.picklist(
      ['FULL', 'NORMAL'],
      'SQLITE_SYNCHRONOUS must be FULL (each commit on disk before it is answered) or NORMAL',
    ),
  ),
  DIST_DIR: v.pipe(
    optionalText,
    v.transform((s) => s ?? 'dist'),
  ),
  SSR_DIR: v.pipe(
    optionalText,
    v.transform((s) => s ?? 'dist-server'),
  ),
  CORS_ORIGINS: originList('CORS_ORIGINS'),
  CSP_CONNECT_SRC: originList('CSP_CONNECT_SRC'),
  TRUST_PROXY: v.pipe(
    optionalText,
    // `true`/`false` are accepted because that is what people type; `true` means one proxy.
    v.transform((s) => (s === 'true' ? '1' : s === 'false' ? '0' : s)),
    v.transform((s) => (s === undefined ? 0 : Number(s))),
    v.check(
      (n) => Number.isInteger(n) && n >= 0 && n <= 10,
      'TRUST_PROXY must be the number of reverse proxies in front of the server (0 to 10)',
    ),
  ),
  PUBLIC_URL: v.pipe(
    httpUrl('PUBLIC_URL'),
    v.check(
      (s) => s === undefined || !/[?#]/.test(s),
      'PUBLIC_URL must be the address the store is reached at, like https://shop.example.com (no ? or #)',
    ),
  ),
  METRICS_TOKEN: v.pipe(
    optionalText,
    v.check(
      (s) => s === undefined || /^[\x21-\x7e]{32,}$/.test(s),
      'METRICS_TOKEN must be at least 32 characters without spaces (openssl rand -hex 32), or empty for no /metrics',
    ),
  ),
  LOG_LEVEL: v.union(
    [v.picklist(LOG_LEVELS), v.undefined()],
    `LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`,
  ),
  NODE_ENV: v.pipe(
    optionalText,
    // Production unless asked otherwise: a forgotten setting must not open the dev helpers.
    v.transform((s) => s ?? 'production'),
    v.picklist(
      ['development', 'production', 'test'],
      'NODE_ENV must be development, production or test',
    ),
  ),
  DEV_OUTBOX: flag('DEV_OUTBOX'),
  DEMO: flag('DEMO'),
  CODE_SECRET: v.pipe(
    optionalText,
    v.check(
      (s) => s === undefined || s.length >= 32,
      'CODE_SECRET must be at least 32 characters (or leave it empty to have one generated)',
    ),
  ),
  TOKEN_SECRET: v.pipe(
    optionalText,
    v.check(
      (s) => s === undefined || s.length >= 32,
      'TOKEN_SECRET must be at least 32 characters (or leave it empty to have one generated)',
    ),
  ),
  LBP_RATE: integer('LBP_RATE', 1, 1_000_000_000, 89_500),
  STOCK_LOW_AT: integer('STOCK_LOW_AT', 0, 1_000_000, 5),
  RECEIPTS_DIR: v.pipe(
    optionalText,
    v.transform((s) => s ?? 'data/receipts'),
  ),
  SLIDER_DIR: v.pipe(
    optionalText,
    v.transform((s) => s ?? 'data/slider'),
  ),
  RECEIPT_MAX_BYTES: integer('RECEIPT_MAX_BYTES', 100_000, RECEIPT_MAX_BYTES, RECEIPT_MAX_BYTES),
  RECEIPT_MAX_PIXELS: integer('RECEIPT_MAX_PIXELS', 1_000_000, 200_000_000, 40_000_000),
  STORE_TIMEZONE: v.pipe(
    optionalText,
    v.transform((s) => s ?? 'Asia/Beirut'),
    v.check(isTimeZone, 'STORE_TIMEZONE must be an IANA time zone such as Asia/Beirut'),
  ),
  CODE_RESEND_SECONDS: integer('CODE_RESEND_SECONDS', 1, 3600, 60),
  CODE_SENDS_PER_PHONE_PER_HOUR: integer('CODE_SENDS_PER_PHONE_PER_HOUR', 1, 1000, 5),
  CODE_SENDS_PER_IP_PER_HOUR: integer('CODE_SENDS_PER_IP_PER_HOUR', 1, 100_000, 20),
  CODE_SENDS_PER_HOUR: integer('CODE_SENDS_PER_HOUR', 1, 1_000_000, 200),
  CODE_COUNTRIES: v.pipe(
    optionalText,
    v.transform((s) =>
      (s ?? 'LB')
        .split(/[\s,]+/)
        .filter(Boolean)
        .map((c) => c.toUpperCase()),
    ),
    v.check(
      (list) => list.length > 0 && list.every((c) => KNOWN_COUNTRIES.has(c)),
      'CODE_COUNTRIES must be a comma-separated list of two-letter country codes, like LB or LB,FR',
    ),
    v.transform((list) => [...new Set(list)] as CountryCode[]),
  ),
  SIGNUPS_PER_IP_PER_HOUR: integer('SIGNUPS_PER_IP_PER_HOUR', 1, 100_000, 20),
  LOOKUPS_PER_IP_PER_HOUR: integer('LOOKUPS_PER_IP_PER_HOUR', 1, 100_000, 60),
  MESSAGES_PER_IP_PER_HOUR: integer('MESSAGES_PER_IP_PER_HOUR', 1, 100_000, 5),
  STATUS_REFRESHES_PER_USER_PER_HOUR: integer(
    'STATUS_REFRESHES_PER_USER_PER_HOUR',
    1,
    100_000,
    120,
  ),
  API_TOKEN_REQUESTS_PER_MINUTE: integer('API_TOKEN_REQUESTS_PER_MINUTE', 1, 100_000, 60),
  TOKEN_SAVES_PER_USER_PER_HOUR: integer('TOKEN_SAVES_PER_USER_PER_HOUR', 1, 10_000, 20),
  PROMO_FAILURES_PER_USER_PER_HOUR: integer('PROMO_FAILURES_PER_USER_PER_HOUR', 1, 10_000, 5),
  PROMO_FAILURES_PER_IP_PER_HOUR: integer('PROMO_FAILURES_PER_IP_PER_HOUR', 1, 100_000, 20),
  RECEIPTS_WAITING_PER_USER: integer('RECEIPTS_WAITING_PER_USER', 1, 1000, 3),
  LOGIN_FAILURES_PER_ACCOUNT: integer('LOGIN_FAILURES_PER_ACCOUNT', 1, 1000, 10),
  LOGIN_FAILURES_PER_IP: integer('LOGIN_FAILURES_PER_IP', 1, 100_000, 50),
  LOGIN_FAILURES_PER_ACCOUNT_PER_DAY: integer('LOGIN_FAILURES_PER_ACCOUNT_PER_DAY', 1, 100_000, 30),
  SESSION_IDLE_DAYS: integer('SESSION_IDLE_DAYS', 1, 3650, 30),
  SESSION_MAX_DAYS: integer('SESSION_MAX_DAYS', 1, 3650, 180),
  PASSWORD_HASH_COST: integer('PASSWORD_HASH_COST', 10, 20, 17),
  WHATSAPP_TOKEN: optionalText,
  WHATSAPP_PHONE_NUMBER_ID: v.pipe(
    optionalText,
    v.check(
      (s) => s === undefined || /^\d+$/.test(s),
      'WHATSAPP_PHONE_NUMBER_ID must be the numeric id of the sending number',
    ),
  ),
  WHATSAPP_TEMPLATE: optionalText,
  WHATSAPP_NOTICE_TEMPLATE: optionalText,
  WHATSAPP_TEMPLATE_LANG: v.pipe(
    optionalText,
    v.transform((s) => s ?? 'en'),
  ),
  SMTP_URL: v.pipe(
    optionalText,
    v.check(
      (s) => s === undefined || /^smtps?:\/\/[^/]/.test(s),
      'SMTP_URL must start with smtp:// or smtps://',
    ),
  ),
  MAIL_FROM: optionalText,
  PROVIDER_URL: v.pipe(
    optionalText,
    v.check(
      (s) => s === undefined || /^https?:\/\/[^/]/.test(s),
      'PROVIDER_URL must start with http:// or https:// (leave it empty for the local demo provider)',
    ),
    v.transform((s) => s?.replace(/\/+$/, '')),
  ),
  PROVIDER_TOKEN: optionalText,
  PROVIDER_TIMEOUT_MS: integer('PROVIDER_TIMEOUT_MS', 100, 120_000, 10_000),
  USDT_TRC20_ADDRESS: v.pipe(
    optionalText,
    v.check(
      (s) => s === undefined || isTronAddress(s),
      'USDT_TRC20_ADDRESS must be a Tron address: T and 33 base58 characters, with a valid checksum',
    ),
  ),
  TRONGRID_URL: v.pipe(
    httpUrl('TRONGRID_URL'),
    v.transform((s) => s ?? 'https://api.trongrid.io'),
  ),
  TRONGRID_API_KEY: optionalText,
  TRON_CONFIRMATIONS: integer('TRON_CONFIRMATIONS', 1, 1000, 20),
  USDT_BEP20_ADDRESS: v.pipe(
    optionalText,
    v.check(
      (s) => s === undefined || bscAddress(s) !== null,
      'USDT_BEP20_ADDRESS must be a BSC address: 0x and 40 hex digits',
    ),
  ),
  BSC_RPC_URL: httpUrl('BSC_RPC_URL'),
  BSC_CONFIRMATIONS: integer('BSC_CONFIRMATIONS', 1, 1000, 15),
  BSC_LOG_WINDOW: integer('BSC_LOG_WINDOW', 1, 100_000, 2000),
  CHAIN_TIMEOUT_MS: integer('CHAIN_TIMEOUT_MS', 100, 120_000, 10_000),
  FIREBASE_SERVICE_ACCOUNT: v.pipe(
    optionalText,
    v.transform((s) => {
      if (s === undefined) return undefined
      try {
        // The JSON itself, or the path of its file.
        return JSON.parse(s.startsWith('{') ? s : readFileSync(s, 'utf8')) as unknown
      } catch {
        return null
      }
    }),
    v.check(
      (value) =>
        value === undefined ||
        (typeof value === 'object' &&
          value !== null &&
          'private_key' in value &&
          'client_email' in value),
      'FIREBASE_SERVICE_ACCOUNT must be a service account key (its JSON, or the path of its file)',
    ),
  ),
  // The Firebase web app's settings (public: every page that offers push carries them).
  FIREBASE_API_KEY: firebaseWeb('FIREBASE_API_KEY'),
  FIREBASE_PROJECT_ID: firebaseWeb('FIREBASE_PROJECT_ID'),
  FIREBASE_MESSAGING_SENDER_ID: firebaseWeb('FIREBASE_MESSAGING_SENDER_ID'),
  FIREBASE_APP_ID: firebaseWeb('FIREBASE_APP_ID'),
  FIREBASE_VAPID_KEY: firebaseWeb('FIREBASE_VAPID_KEY'),
  PUSH_POLL_MS: integer('PUSH_POLL_MS', 100, 60_000, 1000),
  USDT_REQUEST_MINUTES: integer('USDT_REQUEST_MINUTES', 5, 24 * 60, 30),
  USDT_GRACE_MINUTES: integer('USDT_GRACE_MINUTES', 0, 7 * 24 * 60, 120),
  USDT_POLL_SECONDS: integer('USDT_POLL_SECONDS', 3, 3600, 20),
  UPSTREAM_POLL_MS: integer('UPSTREAM_POLL_MS', 100, 3_600_000, 30_000),
  UPSTREAM_TIMEOUT_MS: integer('UPSTREAM_TIMEOUT_MS', 100, 120_000, 15_000),
})

export type Env = v.InferOutput<typeof EnvSchema>
