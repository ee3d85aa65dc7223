import type { CountryCode } from 'libphonenumber-js/min'
import * as v from 'valibot'
import { EnvSchema, LOG_LEVELS, type Env, type LogLevel } from './config-env'
import type { PushConfig } from '../src/contract/notifications'

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
  /** The slider's pictures added in the console: where they are kept (served at /media/slider/). */
  sliderDir: string
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
  /** Upstream panels (services/upstream.ts): how often orders are placed and polled, each call's timeout. */
  upstream: { pollMs: number; timeoutMs: number }
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

export { LOG_LEVELS, type LogLevel }

export class ConfigError extends Error {
  override name = 'ConfigError'
}

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
    sliderDir: e.SLIDER_DIR,
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
    upstream: { pollMs: e.UPSTREAM_POLL_MS, timeoutMs: e.UPSTREAM_TIMEOUT_MS },
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
