import { describe, expect, it } from 'vitest'
import { ConfigError, loadConfig } from './config'

const DAY = 24 * 60 * 60_000
const SECRET = 'a-token-secret-of-32-characters!'
const PUBLIC_URL = 'https://shop.example.com'
/** Production (the default) needs TOKEN_SECRET and PUBLIC_URL; every case but the ones about them sets them. */
const load = (env: Record<string, string | undefined> = {}) =>
  loadConfig({ TOKEN_SECRET: SECRET, PUBLIC_URL, ...env })

describe('loadConfig', () => {
  it('has working defaults', () => {
    expect(load({})).toEqual({
      port: 8080,
      instances: 1,
      host: '0.0.0.0',
      databaseUrl: undefined,
      sqlitePath: 'data/store.db',
      sqliteLockWaitMs: 5000,
      sqliteSynchronous: 'FULL',
      distDir: 'dist',
      ssrDir: 'dist-server',
      corsOrigins: [],
      cspConnectSrc: [],
      trustProxy: 0,
      publicUrl: PUBLIC_URL,
      metricsToken: undefined,
      logLevel: 'info',
      nodeEnv: 'production',
      devOutbox: false,
      demo: false,
      codeSecret: undefined,
      tokenSecret: SECRET,
      lbpRate: 89_500,
      stockLowAt: 5,
      storeTimeZone: 'Asia/Beirut',
      receipts: { dir: 'data/receipts', maxBytes: 8 * 1024 * 1024, maxPixels: 40_000_000 },
      sliderDir: 'data/slider',
      codeLimits: { resendMs: 60_000, perRecipientPerHour: 5, perIpPerHour: 20, perHour: 200 },
      codeCountries: ['LB'],
      rateLimits: {
        signupsPerIp: 20,
        lookupsPerIp: 60,
        messagesPerIp: 5,
        statusRefreshesPerUser: 120,
        apiTokenPerMinute: 60,
        tokenSavesPerUser: 20,
        promoFailuresPerUser: 5,
        promoFailuresPerIp: 20,
      },
      waitingReceiptsPerUser: 3,
      loginLimits: { perAccount: 10, perIp: 50, perAccountPerDay: 30 },
      sessions: { idleMs: 30 * DAY, maxMs: 180 * DAY },
      passwordHashCost: 17,
      whatsapp: undefined,
      smtp: undefined,
      provider: undefined,
      chains: { trc20: undefined, bep20: undefined },
      push: { serviceAccount: undefined, web: undefined, pollMs: 1000 },
      usdt: { requestMs: 30 * 60_000, graceMs: 120 * 60_000, pollMs: 20_000 },
      upstream: { pollMs: 30_000, timeoutMs: 15_000 },
    })
    expect(load({ NODE_ENV: 'test' }).logLevel).toBe('silent')
  })

  it('reads the code sending limits and countries', () => {
    const config = load({
      CODE_RESEND_SECONDS: '2',
      CODE_SENDS_PER_PHONE_PER_HOUR: '7',
      CODE_SENDS_PER_IP_PER_HOUR: '900',
      CODE_SENDS_PER_HOUR: '5000',
      CODE_COUNTRIES: 'lb, FR,LB',
    })
    expect(config.codeLimits).toEqual({
      resendMs: 2000,
      perRecipientPerHour: 7,
      perIpPerHour: 900,
      perHour: 5000,
    })
    expect(config.codeCountries).toEqual(['LB', 'FR'])
    expect(() => load({ CODE_RESEND_SECONDS: '0' })).toThrow(/CODE_RESEND_SECONDS/)
    expect(() => load({ CODE_SENDS_PER_HOUR: '0' })).toThrow(/CODE_SENDS_PER_HOUR/)
    expect(() => load({ CODE_COUNTRIES: 'LB,XX' })).toThrow(/CODE_COUNTRIES/)
    expect(() => load({ CODE_COUNTRIES: 'Lebanon' })).toThrow(/CODE_COUNTRIES/)
  })

  it('runs several server processes only on PostgreSQL', () => {
    expect(load({}).instances).toBe(1)
    expect(load({ INSTANCES: '4', DATABASE_URL: 'postgres://db/store' }).instances).toBe(4)
    expect(() => load({ INSTANCES: '2' })).toThrow(/INSTANCES: more than one .* needs PostgreSQL/)
    expect(() => load({ INSTANCES: '0' })).toThrow(/INSTANCES/)
  })

  it('reads the request limits', () => {
    const config = load({
      SIGNUPS_PER_IP_PER_HOUR: '1',
      LOOKUPS_PER_IP_PER_HOUR: '2',
      MESSAGES_PER_IP_PER_HOUR: '3',
      STATUS_REFRESHES_PER_USER_PER_HOUR: '4',
      API_TOKEN_REQUESTS_PER_MINUTE: '5',
      TOKEN_SAVES_PER_USER_PER_HOUR: '6',
      PROMO_FAILURES_PER_USER_PER_HOUR: '7',
      PROMO_FAILURES_PER_IP_PER_HOUR: '8',
      RECEIPTS_WAITING_PER_USER: '9',
    })
    expect(config.rateLimits).toEqual({
      signupsPerIp: 1,
      lookupsPerIp: 2,
      messagesPerIp: 3,
      statusRefreshesPerUser: 4,
      apiTokenPerMinute: 5,
      tokenSavesPerUser: 6,
      promoFailuresPerUser: 7,
      promoFailuresPerIp: 8,
    })
    expect(config.waitingReceiptsPerUser).toBe(9)
    for (const name of [
      'PROMO_FAILURES_PER_USER_PER_HOUR',
      'RECEIPTS_WAITING_PER_USER',
      'SIGNUPS_PER_IP_PER_HOUR',
      'LOOKUPS_PER_IP_PER_HOUR',
      'MESSAGES_PER_IP_PER_HOUR',
      'STATUS_REFRESHES_PER_USER_PER_HOUR',
      'API_TOKEN_REQUESTS_PER_MINUTE',
    ]) {
      expect(() => load({ [name]: '0' }), name).toThrow(name)
    }
  })

  it('reads the failed sign-in limits', () => {
    const config = load({
      LOGIN_FAILURES_PER_ACCOUNT: '5',
      LOGIN_FAILURES_PER_IP: '200',
      LOGIN_FAILURES_PER_ACCOUNT_PER_DAY: '40',
    })
    expect(config.loginLimits).toEqual({ perAccount: 5, perIp: 200, perAccountPerDay: 40 })
    expect(() => load({ LOGIN_FAILURES_PER_ACCOUNT: '0' })).toThrow(/LOGIN_FAILURES_PER_ACCOUNT/)
    expect(() => load({ LOGIN_FAILURES_PER_IP: 'many' })).toThrow(/LOGIN_FAILURES_PER_IP/)
    expect(() => load({ LOGIN_FAILURES_PER_ACCOUNT_PER_DAY: '0' })).toThrow(
      /LOGIN_FAILURES_PER_ACCOUNT_PER_DAY/,
    )
  })

  it('reads the session lifetimes', () => {
    const config = load({ SESSION_IDLE_DAYS: '7', SESSION_MAX_DAYS: '90' })
    expect(config.sessions).toEqual({ idleMs: 7 * DAY, maxMs: 90 * DAY })
    expect(() => load({ SESSION_IDLE_DAYS: '0' })).toThrow(/SESSION_IDLE_DAYS/)
    expect(() => load({ SESSION_MAX_DAYS: 'forever' })).toThrow(/SESSION_MAX_DAYS/)
  })

  it('reads the store time zone', () => {
    expect(load({ STORE_TIMEZONE: 'Europe/Paris' }).storeTimeZone).toBe('Europe/Paris')
    expect(() => load({ STORE_TIMEZONE: 'Beirut' })).toThrow(/STORE_TIMEZONE/)
  })

  it('reads the password hashing cost, never below 15 in production', () => {
    expect(load({ PASSWORD_HASH_COST: '12', NODE_ENV: 'test' }).passwordHashCost).toBe(12)
    // Production is the default, so the low cost needs a test or development setting.
    expect(() => load({ PASSWORD_HASH_COST: '12' })).toThrow(/at least 15 in production/)
    expect(() => load({ PASSWORD_HASH_COST: '9' })).toThrow(/PASSWORD_HASH_COST/)
    expect(() => load({ PASSWORD_HASH_COST: '14', NODE_ENV: 'production' })).toThrow(
      /PASSWORD_HASH_COST: at least 15 in production/,
    )
    expect(load({ NODE_ENV: 'production' }).passwordHashCost).toBe(17)
  })

  it('opens the outbox reader and loads the demo only when asked, never in production', () => {
    expect(load({}).nodeEnv).toBe('production')
    const dev = load({ NODE_ENV: 'development', DEV_OUTBOX: '1', DEMO: 'true' })
    expect([dev.devOutbox, dev.demo]).toEqual([true, true])
    const off = load({ NODE_ENV: 'development', DEV_OUTBOX: '0', DEMO: 'no' })
    expect([off.devOutbox, off.demo]).toEqual([false, false])
    expect(() => load({ NODE_ENV: 'test', DEMO: 'maybe' })).toThrow(/DEMO must be 1 or 0/)
    expect(() => load({ DEV_OUTBOX: '1' })).toThrow(/DEV_OUTBOX: never with NODE_ENV=production/)
    expect(() => load({ NODE_ENV: 'production', DEMO: '1' })).toThrow(
      /DEMO: never with NODE_ENV=production/,
    )
  })

  it('reads every setting, treating empty values as unset', () => {
    const config = load({
      PORT: '3000',
      HOST: '127.0.0.1',
      DATABASE_URL: 'postgresql://u@db:5432/store',
      SQLITE_PATH: '',
      DIST_DIR: '/srv/dist',
      CORS_ORIGINS: 'https://a.example.com, https://b.example.com:8443',
      CSP_CONNECT_SRC: 'https://api.example.com',
      TRUST_PROXY: 'true',
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
    })
    expect(config).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      databaseUrl: 'postgresql://u@db:5432/store',
      sqlitePath: 'data/store.db',
      sqliteLockWaitMs: 5000,
      distDir: '/srv/dist',
      corsOrigins: ['https://a.example.com', 'https://b.example.com:8443'],
      cspConnectSrc: ['https://api.example.com'],
      trustProxy: 1,
      logLevel: 'warn',
      nodeEnv: 'production',
    })
  })

  it('names every bad setting in one error', () => {
    let error: unknown
    try {
      load({
        PORT: 'eighty',
        DATABASE_URL: 'mysql://x',
        CORS_ORIGINS: 'https://ok.example.com,https://bad.example.com/path',
        LOG_LEVEL: 'loud',
        NODE_ENV: 'staging',
      })
    } catch (err) {
      error = err
    }
    expect(error).toBeInstanceOf(ConfigError)
    const message = (error as Error).message
    for (const key of ['PORT', 'DATABASE_URL', 'CORS_ORIGINS', 'LOG_LEVEL', 'NODE_ENV']) {
      expect(message).toContain(key)
    }
  })

  it('reads the account settings: code and token keys, LBP rate, WhatsApp and SMTP senders', () => {
    const config = load({
      CODE_SECRET: 'x'.repeat(40),
      TOKEN_SECRET: 'y'.repeat(40),
      LBP_RATE: '90000',
      WHATSAPP_TOKEN: 'EAAB-token',
      WHATSAPP_PHONE_NUMBER_ID: '1234567890',
      WHATSAPP_TEMPLATE: 'store_code',
      SMTP_URL: 'smtps://user:pass@smtp.example.com:465',
      MAIL_FROM: 'Store <no-reply@shop.example.com>',
    })
    expect(config).toMatchObject({
      codeSecret: 'x'.repeat(40),
      tokenSecret: 'y'.repeat(40),
      lbpRate: 90_000,
      whatsapp: {
        token: 'EAAB-token',
        phoneNumberId: '1234567890',
        template: 'store_code',
        templateLang: 'en',
      },
      smtp: {
        url: 'smtps://user:pass@smtp.example.com:465',
        from: 'Store <no-reply@shop.example.com>',
      },
    })
    expect(load({ ...whatsapp(), WHATSAPP_TEMPLATE_LANG: 'ar' }).whatsapp?.templateLang).toBe('ar')
    expect(config.whatsapp?.noticeTemplate).toBeUndefined()
    expect(
      load({ ...whatsapp(), WHATSAPP_NOTICE_TEMPLATE: 'store_notice' }).whatsapp?.noticeTemplate,
    ).toBe('store_notice')
  })

  it('reads the provider settings', () => {
    expect(
      load({ PROVIDER_URL: 'https://provider.example/api/', PROVIDER_TOKEN: 'secret' }).provider,
    ).toEqual({ url: 'https://provider.example/api', token: 'secret', timeoutMs: 10_000 })
    expect(load({ PROVIDER_TOKEN: 'secret' }).provider).toBeUndefined()
  })

  it('reads the USDT watcher settings, each network on when its address is set', () => {
    expect(load({ USDT_TRC20_ADDRESS: TRON_ADDRESS }).chains).toEqual({
      trc20: {
        address: TRON_ADDRESS,
        url: 'https://api.trongrid.io',
        apiKey: undefined,
        confirmations: 20,
        timeoutMs: 10_000,
      },
      bep20: undefined,
    })
    const config = load({
      USDT_TRC20_ADDRESS: TRON_ADDRESS,
      TRONGRID_URL: 'https://tron.example/',
      TRONGRID_API_KEY: 'key-1',
      TRON_CONFIRMATIONS: '25',
      USDT_BEP20_ADDRESS: '0xAbCdEf0123456789aBcDeF0123456789AbCdEf01',
      BSC_RPC_URL: 'https://bsc.example/v1/secret/',
      BSC_CONFIRMATIONS: '30',
      BSC_LOG_WINDOW: '500',
      CHAIN_TIMEOUT_MS: '3000',
    })
    expect(config.chains).toEqual({
      trc20: {
        address: TRON_ADDRESS,
        url: 'https://tron.example',
        apiKey: 'key-1',
        confirmations: 25,
        timeoutMs: 3000,
      },
      bep20: {
        address: '0xabcdef0123456789abcdef0123456789abcdef01',
        rpcUrl: 'https://bsc.example/v1/secret',
        confirmations: 30,
        logWindow: 500,
        timeoutMs: 3000,
      },
    })
    expect(
      load({
        USDT_BEP20_ADDRESS: '0x' + 'ab'.repeat(20),
        BSC_RPC_URL: 'http://127.0.0.1:8545',
      }).chains.bep20,
    ).toMatchObject({ confirmations: 15, logWindow: 2000, timeoutMs: 10_000 })
  })

  it('refuses bad USDT watcher settings', () => {
    const problems = (env: Record<string, string>) => {
      try {
        load(env)
      } catch (err) {
        expect(err).toBeInstanceOf(ConfigError)
        return (err as Error).message
      }
      return ''
    }
    // The last character changed: the base58check checksum no longer matches.
    expect(problems({ USDT_TRC20_ADDRESS: TRON_ADDRESS.slice(0, -1) + 'u' })).toContain(
      'USDT_TRC20_ADDRESS',
    )
    expect(problems({ USDT_TRC20_ADDRESS: '0x' + 'ab'.repeat(20) })).toContain('USDT_TRC20_ADDRESS')
    expect(problems({ TRONGRID_URL: 'api.trongrid.io' })).toContain('TRONGRID_URL')
    expect(problems({ TRON_CONFIRMATIONS: '0' })).toContain('TRON_CONFIRMATIONS')
    const bsc = { USDT_BEP20_ADDRESS: '0x' + 'ab'.repeat(20), BSC_RPC_URL: 'https://bsc.example' }
    expect(problems({ ...bsc, USDT_BEP20_ADDRESS: '0x' + 'ab'.repeat(19) })).toContain(
      'USDT_BEP20_ADDRESS',
    )
    expect(problems({ ...bsc, USDT_BEP20_ADDRESS: TRON_ADDRESS })).toContain('USDT_BEP20_ADDRESS')
    expect(problems({ USDT_BEP20_ADDRESS: bsc.USDT_BEP20_ADDRESS })).toContain('BSC_RPC_URL')
    expect(problems({ BSC_RPC_URL: bsc.BSC_RPC_URL })).toContain('USDT_BEP20_ADDRESS')
    expect(problems({ ...bsc, BSC_RPC_URL: 'wss://bsc.example' })).toContain('BSC_RPC_URL')
    expect(problems({ ...bsc, BSC_CONFIRMATIONS: '1.5' })).toContain('BSC_CONFIRMATIONS')
    expect(problems({ ...bsc, BSC_LOG_WINDOW: '0' })).toContain('BSC_LOG_WINDOW')
    expect(problems({ CHAIN_TIMEOUT_MS: '50' })).toContain('CHAIN_TIMEOUT_MS')
  })

  it('refuses half-configured senders and bad account settings', () => {
    const problems = (env: Record<string, string | undefined>) => {
      try {
        load(env)
      } catch (err) {
        expect(err).toBeInstanceOf(ConfigError)
        return (err as Error).message
      }
      return ''
    }
    expect(problems({ WHATSAPP_TOKEN: 'only-this' })).toContain('WHATSAPP_TEMPLATE')
    expect(problems({ SMTP_URL: 'smtp://mail.example.com' })).toContain('MAIL_FROM')
    expect(problems({ SMTP_URL: 'http://mail.example.com', MAIL_FROM: 'a@b.c' })).toContain(
      'SMTP_URL',
    )
    expect(problems({ CODE_SECRET: 'short' })).toContain('CODE_SECRET')
    expect(problems({ TOKEN_SECRET: 'short' })).toContain('TOKEN_SECRET')
    // Production needs one; development and tests work without (a key kept in the database).
    expect(problems({ TOKEN_SECRET: undefined })).toContain('TOKEN_SECRET: required in production')
    expect(loadConfig({ NODE_ENV: 'development' }).tokenSecret).toBeUndefined()
    // The address reset links start with: required in production, an http(s) address.
    expect(problems({ PUBLIC_URL: undefined })).toContain('PUBLIC_URL: required in production')
    expect(problems({ PUBLIC_URL: 'shop.example.com' })).toContain('PUBLIC_URL')
    expect(problems({ PUBLIC_URL: 'https://shop.example.com/#/' })).toContain('PUBLIC_URL')
    expect(load({ PUBLIC_URL: 'https://shop.example.com/store/' }).publicUrl).toBe(
      'https://shop.example.com/store',
    )
    expect(loadConfig({ NODE_ENV: 'development' }).publicUrl).toBeUndefined()
    expect(problems({ METRICS_TOKEN: 'short' })).toContain('METRICS_TOKEN')
    expect(load({ METRICS_TOKEN: 'm'.repeat(32) }).metricsToken).toBe('m'.repeat(32))
    expect(problems({ SQLITE_SYNCHRONOUS: 'off' })).toContain('SQLITE_SYNCHRONOUS')
    expect(load({ SQLITE_SYNCHRONOUS: 'normal' }).sqliteSynchronous).toBe('NORMAL')
    expect(problems({ PROVIDER_URL: 'ftp://provider.example' })).toContain('PROVIDER_URL')
    expect(problems({ PROVIDER_URL: 'https://p.example', PROVIDER_TIMEOUT_MS: '5' })).toContain(
      'PROVIDER_TIMEOUT_MS',
    )
    expect(problems({ LBP_RATE: '0' })).toContain('LBP_RATE')
    expect(problems({ LBP_RATE: '89500.5' })).toContain('LBP_RATE')
    expect(problems({ ...whatsapp(), WHATSAPP_PHONE_NUMBER_ID: '+961' })).toContain(
      'WHATSAPP_PHONE_NUMBER_ID',
    )
    expect(problems({ FIREBASE_API_KEY: 'AIzaOnlyThis' })).toContain('FIREBASE_VAPID_KEY')
    expect(problems({ ...firebaseWeb(), FIREBASE_APP_ID: '1:2 3' })).toContain('FIREBASE_APP_ID')
  })

  it('reads the Firebase web settings the storefront offers push with, all five or none', () => {
    expect(load(firebaseWeb()).push.web).toEqual({
      apiKey: 'AIzaSyA-example_key',
      projectId: 'my-store',
      messagingSenderId: '123456789012',
      appId: '1:123456789012:web:abc123',
      vapidKey: 'BExample-VAPID_key',
    })
    expect(load().push.web).toBeUndefined()
  })
})

function firebaseWeb() {
  return {
    FIREBASE_API_KEY: 'AIzaSyA-example_key',
    FIREBASE_PROJECT_ID: 'my-store',
    FIREBASE_MESSAGING_SENDER_ID: '123456789012',
    FIREBASE_APP_ID: '1:123456789012:web:abc123',
    FIREBASE_VAPID_KEY: 'BExample-VAPID_key',
  }
}

/** The USDT contract's own address: a real, checksummed Tron address. */
const TRON_ADDRESS = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t'

function whatsapp() {
  return {
    WHATSAPP_TOKEN: 't',
    WHATSAPP_PHONE_NUMBER_ID: '1',
    WHATSAPP_TEMPLATE: 'code',
  }
}
