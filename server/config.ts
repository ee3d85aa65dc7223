import { readFileSync } from 'node:fs'
import { getCountries, type CountryCode } from 'libphonenumber-js/min'
import * as v from 'valibot'
import { bscAddress, isTronAddress } from './adapters/chains/address'
import { isTimeZone } from './services/dates'
import { RECEIPT_MAX_BYTES } from '../src/contract/wallet'
import type { PushConfig } from '../src/contract/notifications'

export const LOG_LEVELS = ['debug', 'info', 'warn', 'error', 'silent'] as const
export type LogLevel = (typeof LOG_LEVELS)[number]

export interface Config {
  port: number
  /** Server processes `npm run serve` runs on the port (INSTANCES, node:cluster; server/cluster.ts). */
  instances: number
  host: string
  /** A postgres:// URL selects PostgreSQL; otherwise the embedded SQLite file is used. */
  databaseUrl: string | undefined
  sqlitePath: string
  /** How long a write waits for SQLite's lock (held by another process) before 503. */
  sqliteLockWaitMs: number
  /**
   * FULL: a commit is on disk before it is answered (the default). NORMAL: only at SQLite's
   * checkpoints, so a power cut may undo answered orders (SQLITE_SYNCHRONOUS, opt-in).
   */
  sqliteSynchronous: 'FULL' | 'NORMAL'
  distDir: string
  /** The server build of home's first screen (`vite build --ssr`). */
  ssrDir: string
  corsOrigins: string[]
  /** Origins the storefront may fetch from besides its own (CSP connect-src). */
  cspConnectSrc: string[]
  /** How many reverse-proxy hops to believe in X-Forwarded-For / -Proto (0 = none). */
  trustProxy: number
  logLevel: LogLevel
  /**
   * The store's public address (PUBLIC_URL, no trailing slash), which e-mailed links start
   * with. Required in production; elsewhere unset means the address a request came to.
   */
  publicUrl: string | undefined
  /** The bearer secret of GET /metrics (METRICS_TOKEN); unset, /metrics does not exist. */
  metricsToken: string | undefined
  /** Default production: development and test must be asked for. */
  nodeEnv: 'development' | 'production' | 'test'
  /** GET /api/dev/outbox (DEV_OUTBOX=1): shows the codes of channels without a real sender. */
  devOutbox: boolean
  /** Load the demo accounts, orders and catalogue into a new database (DEMO=1). */
  demo: boolean
  /** Key of the verification-code HMAC; unset = a random one kept in the settings table. */
  codeSecret: string | undefined
  /**
   * Key of the encrypted copies of API tokens (shown again to their owners); unset = a random
   * one kept in the settings table.
   */
  tokenSecret: string | undefined
  /** LBP per USD, used when a user switches the wallet currency. */
  lbpRate: number
  /** The code stock's low-stock notice: at this many available codes, unless a package has its own. */
  stockLowAt: number
  /** The IANA time zone whose days the date filters and the date/time fields of replies use. */
  storeTimeZone: string
  /** Receipt photos of top-ups: where they are kept (outside the web root) and their limits. */
  receipts: { dir: string; maxBytes: number; maxPixels: number }
  /**
   * How often a code may be sent (60 s between sends by default), the hourly caps per recipient
   * and per address, and the hourly budget of codes the whole store sends.
   */
  codeLimits: {
    resendMs: number
    perRecipientPerHour: number
    perIpPerHour: number
    perHour: number
  }
  /** Countries whose phone numbers may receive a code (ISO 3166 codes, CODE_COUNTRIES). */
  codeCountries: CountryCode[]
  /** Requests per hour of the endpoints anyone can call (per address) or that call the provider. */
  rateLimits: {
    signupsPerIp: number
    lookupsPerIp: number
    messagesPerIp: number
    statusRefreshesPerUser: number
    /** Calls per minute made with one API token (the v2 API and Bearer calls alike). */
    apiTokenPerMinute: number
    /** API token saves per account per hour: probing which tokens exist stays slow. */
    tokenSavesPerUser: number
    /** Wrong promo codes per customer, and per address, per hour; then 429. */
    promoFailuresPerUser: number
    promoFailuresPerIp: number
  }
  /** Receipt top-ups a customer may have waiting for the operator at once. */
  waitingReceiptsPerUser: number
  /**
   * Failed password checks: per account from one address and per address, each per 15
   * minutes; per account from everywhere per day, past which tries wait a growing delay.
   */
  loginLimits: { perAccount: number; perIp: number; perAccountPerDay: number }
  /** A session ends after this long unused, and this long after sign-in whatever the use. */
  sessions: { idleMs: number; maxMs: number }
  /** log2 of scrypt's cost N for new password hashes (OWASP: 17). */
  passwordHashCost: number
  /** WhatsApp Cloud API sender for phone codes; unset = the local outbox. */
  whatsapp: WhatsAppConfig | undefined
  /** SMTP sender for e-mail codes; unset = the local outbox. */
  smtp: SmtpConfig | undefined
  /** The fulfilment provider's HTTP API (player search, orders); unset = the local demo one. */
  provider: ProviderConfig | undefined
  /** The USDT top-up watchers (server/adapters/chains); a network without an address is off. */
  chains: ChainsConfig
  /**
   * Push: the Firebase service account (JSON) when FCM sends them, the Firebase web app's
   * settings the storefront asks for devices' tokens with, and how often jobs are looked at.
   */
  push: { serviceAccount: object | undefined; web: PushConfig | undefined; pollMs: number }
  /** USDT requests: how long a customer has to pay, how long after that a transfer is still told apart, how often the watchers poll. */
  usdt: { requestMs: number; graceMs: number; pollMs: number }
}

export interface ProviderConfig {
  /** Base URL, without a trailing slash. */
  url: string
  token: string | undefined
  timeoutMs: number
}

export interface ChainsConfig {
  trc20: Trc20Config | undefined
  bep20: Bep20Config | undefined
}

export interface Trc20Config {
  /** The store's receiving address, base58check. */
  address: string
  /** TronGrid (or a compatible node) base URL, without a trailing slash. */
  url: string
  /** Sent as TRON-PRO-API-KEY; without one TronGrid rate-limits hard. */
  apiKey: string | undefined
  confirmations: number
  timeoutMs: number
}

export interface Bep20Config {
  /** The store's receiving address, lower-case 0x hex. */
  address: string
  /** JSON-RPC endpoint; it may carry an API key in its path, so it is never logged. */
  rpcUrl: string
  confirmations: number
  /** Blocks per eth_getLogs call: nodes refuse or truncate wide ranges. */
  logWindow: number
  timeoutMs: number
}

export interface WhatsAppConfig {
  token: string
  phoneNumberId: string
  template: string
  templateLang: string
  /** A utility template for security notices to account owners; unset = none by WhatsApp. */
  noticeTemplate?: string | undefined
}

export interface SmtpConfig {
  url: string
  from: string
}

const DAY_MS = 24 * 60 * 60_000
const KNOWN_COUNTRIES = new Set<string>(getCountries())

export class ConfigError extends Error {
  override name = 'ConfigError'
}

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

const EnvSchema = v.object({
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
})

type Env = v.InferOutput<typeof EnvSchema>

/** Settings that only make sense together. */
function crossChecks(e: Env): string[] {
  const problems: string[] = []
  const whatsapp = [e.WHATSAPP_TOKEN, e.WHATSAPP_PHONE_NUMBER_ID, e.WHATSAPP_TEMPLATE]
  if (whatsapp.some(Boolean) && !whatsapp.every(Boolean)) {
    problems.push(
      '  WHATSAPP_TOKEN, WHATSAPP_PHONE_NUMBER_ID, WHATSAPP_TEMPLATE: set all three to send codes by WhatsApp, or none',
    )
  }
  if (e.NODE_ENV === 'production' && e.DEV_OUTBOX) {
    problems.push(
      '  DEV_OUTBOX: never with NODE_ENV=production (it shows the sign-in and reset codes to anyone who asks)',
    )
  }
  if (e.NODE_ENV === 'production' && e.DEMO) {
    problems.push(
      '  DEMO: never with NODE_ENV=production (the demo accounts have public passwords); `npm start` is the local demo',
    )
  }
  if (e.NODE_ENV === 'production' && !e.TOKEN_SECRET) {
    problems.push(
      '  TOKEN_SECRET: required in production: at least 32 random characters (openssl rand -base64 32), kept outside the database and its backups; the API tokens are sealed under it',
    )
  }
  if (e.NODE_ENV === 'production' && !e.PUBLIC_URL) {
    problems.push(
      '  PUBLIC_URL: required in production: the address customers reach the store at, like https://shop.example.com; password-reset e-mails carry links that start with it',
    )
  }
  if (e.NODE_ENV === 'production' && e.PASSWORD_HASH_COST < 15) {
    problems.push(
      "  PASSWORD_HASH_COST: at least 15 in production (17 is OWASP's recommendation; lower is for tests)",
    )
  }
  if (e.INSTANCES > 1 && !e.DATABASE_URL) {
    problems.push(
      '  INSTANCES: more than one server process needs PostgreSQL (DATABASE_URL); SQLite serves from one',
    )
  }
  if (Boolean(e.USDT_BEP20_ADDRESS) !== Boolean(e.BSC_RPC_URL)) {
    problems.push(
      '  USDT_BEP20_ADDRESS, BSC_RPC_URL: set both to watch BEP20 top-ups (the address and a BSC JSON-RPC endpoint that serves eth_getLogs), or neither',
    )
  }
  const web = [
    e.FIREBASE_API_KEY,
    e.FIREBASE_PROJECT_ID,
    e.FIREBASE_MESSAGING_SENDER_ID,
    e.FIREBASE_APP_ID,
    e.FIREBASE_VAPID_KEY,
  ]
  if (web.some(Boolean) && !web.every(Boolean)) {
    problems.push(
      '  FIREBASE_API_KEY, FIREBASE_PROJECT_ID, FIREBASE_MESSAGING_SENDER_ID, FIREBASE_APP_ID, FIREBASE_VAPID_KEY: set all five for the storefront to offer push notifications, or none',
    )
  }
  if (e.SMTP_URL && !e.MAIL_FROM) {
    problems.push(
      '  MAIL_FROM: required with SMTP_URL (the sender address, e.g. Store <no-reply@shop.example.com>)',
    )
  }
  return problems
}

/** Reads and checks the configuration; throws a ConfigError listing every problem. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const input = Object.fromEntries(
    Object.keys(EnvSchema.entries).map((key) => [key, env[key]?.trim() || undefined]),
  )
  const result = v.safeParse(EnvSchema, input)
  if (!result.success) {
    const lines = result.issues.map((issue) => {
      const key = issue.path?.map((p) => String(p.key)).join('.') ?? '?'
      return `  ${key}: ${issue.message}`
    })
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`)
  }
  const e = result.output
  const problems = crossChecks(e)
  if (problems.length > 0) throw new ConfigError(`Invalid configuration:\n${problems.join('\n')}`)
  return {
    port: e.PORT,
    instances: e.INSTANCES,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    sqlitePath: e.SQLITE_PATH,
    sqliteLockWaitMs: e.SQLITE_LOCK_WAIT_MS,
    sqliteSynchronous: e.SQLITE_SYNCHRONOUS,
    distDir: e.DIST_DIR,
    ssrDir: e.SSR_DIR,
    corsOrigins: e.CORS_ORIGINS,
    cspConnectSrc: e.CSP_CONNECT_SRC,
    trustProxy: e.TRUST_PROXY,
    publicUrl: e.PUBLIC_URL,
    metricsToken: e.METRICS_TOKEN,
    // Tests run quiet unless someone asks for logs explicitly.
    logLevel: e.LOG_LEVEL ?? (e.NODE_ENV === 'test' ? 'silent' : 'info'),
    nodeEnv: e.NODE_ENV,
    devOutbox: e.DEV_OUTBOX,
    demo: e.DEMO,
    codeSecret: e.CODE_SECRET,
    tokenSecret: e.TOKEN_SECRET,
    lbpRate: e.LBP_RATE,
    stockLowAt: e.STOCK_LOW_AT,
    storeTimeZone: e.STORE_TIMEZONE,
    receipts: {
      dir: e.RECEIPTS_DIR,
      maxBytes: e.RECEIPT_MAX_BYTES,
      maxPixels: e.RECEIPT_MAX_PIXELS,
    },
    codeLimits: {
      resendMs: e.CODE_RESEND_SECONDS * 1000,
      perRecipientPerHour: e.CODE_SENDS_PER_PHONE_PER_HOUR,
      perIpPerHour: e.CODE_SENDS_PER_IP_PER_HOUR,
      perHour: e.CODE_SENDS_PER_HOUR,
    },
    codeCountries: e.CODE_COUNTRIES,
    rateLimits: {
      signupsPerIp: e.SIGNUPS_PER_IP_PER_HOUR,
      lookupsPerIp: e.LOOKUPS_PER_IP_PER_HOUR,
      messagesPerIp: e.MESSAGES_PER_IP_PER_HOUR,
      statusRefreshesPerUser: e.STATUS_REFRESHES_PER_USER_PER_HOUR,
      apiTokenPerMinute: e.API_TOKEN_REQUESTS_PER_MINUTE,
      tokenSavesPerUser: e.TOKEN_SAVES_PER_USER_PER_HOUR,
      promoFailuresPerUser: e.PROMO_FAILURES_PER_USER_PER_HOUR,
      promoFailuresPerIp: e.PROMO_FAILURES_PER_IP_PER_HOUR,
    },
    waitingReceiptsPerUser: e.RECEIPTS_WAITING_PER_USER,
    loginLimits: {
      perAccount: e.LOGIN_FAILURES_PER_ACCOUNT,
      perIp: e.LOGIN_FAILURES_PER_IP,
      perAccountPerDay: e.LOGIN_FAILURES_PER_ACCOUNT_PER_DAY,
    },
    sessions: { idleMs: e.SESSION_IDLE_DAYS * DAY_MS, maxMs: e.SESSION_MAX_DAYS * DAY_MS },
    passwordHashCost: e.PASSWORD_HASH_COST,
    whatsapp:
      e.WHATSAPP_TOKEN && e.WHATSAPP_PHONE_NUMBER_ID && e.WHATSAPP_TEMPLATE
        ? {
            token: e.WHATSAPP_TOKEN,
            phoneNumberId: e.WHATSAPP_PHONE_NUMBER_ID,
            template: e.WHATSAPP_TEMPLATE,
            templateLang: e.WHATSAPP_TEMPLATE_LANG,
            noticeTemplate: e.WHATSAPP_NOTICE_TEMPLATE,
          }
        : undefined,
    smtp: e.SMTP_URL && e.MAIL_FROM ? { url: e.SMTP_URL, from: e.MAIL_FROM } : undefined,
    provider: e.PROVIDER_URL
      ? { url: e.PROVIDER_URL, token: e.PROVIDER_TOKEN, timeoutMs: e.PROVIDER_TIMEOUT_MS }
      : undefined,
    chains: {
      trc20: e.USDT_TRC20_ADDRESS
        ? {
            address: e.USDT_TRC20_ADDRESS,
            url: e.TRONGRID_URL,
            apiKey: e.TRONGRID_API_KEY,
            confirmations: e.TRON_CONFIRMATIONS,
            timeoutMs: e.CHAIN_TIMEOUT_MS,
          }
        : undefined,
      bep20:
        e.USDT_BEP20_ADDRESS && e.BSC_RPC_URL
          ? {
              address: e.USDT_BEP20_ADDRESS.toLowerCase(),
              rpcUrl: e.BSC_RPC_URL,
              confirmations: e.BSC_CONFIRMATIONS,
              logWindow: e.BSC_LOG_WINDOW,
              timeoutMs: e.CHAIN_TIMEOUT_MS,
            }
          : undefined,
    },
    push: {
      serviceAccount: (e.FIREBASE_SERVICE_ACCOUNT as object | undefined) ?? undefined,
      web:
        e.FIREBASE_API_KEY &&
        e.FIREBASE_PROJECT_ID &&
        e.FIREBASE_MESSAGING_SENDER_ID &&
        e.FIREBASE_APP_ID &&
        e.FIREBASE_VAPID_KEY
          ? {
              apiKey: e.FIREBASE_API_KEY,
              projectId: e.FIREBASE_PROJECT_ID,
              messagingSenderId: e.FIREBASE_MESSAGING_SENDER_ID,
              appId: e.FIREBASE_APP_ID,
              vapidKey: e.FIREBASE_VAPID_KEY,
            }
          : undefined,
      pollMs: e.PUSH_POLL_MS,
    },
    usdt: {
      requestMs: e.USDT_REQUEST_MINUTES * 60_000,
      graceMs: e.USDT_GRACE_MINUTES * 60_000,
      pollMs: e.USDT_POLL_SECONDS * 1000,
    },
  }
}

/**
 * A local .env is a convenience for development (the server and the operator CLI both read
 * it); real environment variables win.
 */
export function loadDotEnv(path = '.env'): void {
  try {
    process.loadEnvFile(path)
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err
  }
}
