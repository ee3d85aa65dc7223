import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { randomBytes } from 'node:crypto'
import pg from 'pg'
import { afterAll, beforeAll, describe, it } from 'vitest'
import { createApp, type App } from '../app'
import { TestClock } from '../clock'
import { loadConfig, type Config } from '../config'
import { createDb, type Db, type Dialect } from '../db'
import { migrateToLatest } from '../db/migrations'
import { seedDemo } from '../demo/seed'
import { PasswordHasher } from '../services/passwords'

/**
 * scrypt at OWASP's cost takes over a second per hash on a small machine; tests hash with
 * N = 2^10 instead. The stored format names its parameters, so every code path is the same.
 */
export const testPasswords = new PasswordHasher({ ln: 10, r: 8, p: 1 })

export interface TestContext {
  dialect: Dialect
  db: Db['db']
  config: Config
  app: App
  /** A fresh app over the same database with some settings changed. */
  appWith(overrides: Partial<Config>): App
  /** The apps' clock: `ctx.clock.advance(ms)` moves time for expiry, locks and caps. */
  clock: TestClock
}

/** The test settings; the suites read codes through the development outbox. */
export function testConfig(overrides: Partial<Config> = {}): Config {
  return { ...loadConfig({ NODE_ENV: 'test', DEV_OUTBOX: '1' }), ...overrides }
}

interface Target {
  dialect: Dialect
  /** Creates an empty database; returns its settings and how to remove it. */
  create(): Promise<{ settings: Partial<Config>; drop(): Promise<void> }>
}

const sqliteTarget: Target = {
  dialect: 'sqlite',
  async create() {
    // A real file rather than :memory:, so WAL and the directory creation are exercised too.
    const dir = mkdtempSync(join(tmpdir(), 'store-test-'))
    return {
      settings: { databaseUrl: undefined, sqlitePath: join(dir, 'db', 'store.db') },
      drop: async () => rmSync(dir, { recursive: true, force: true }),
    }
  },
}

/** A new, empty PostgreSQL database on the server at `serverUrl`: its URL and how to drop it. */
export async function createPgDatabase(serverUrl: string, prefix = 'store_test') {
  const name = `${prefix}_${process.pid}_${randomBytes(4).toString('hex')}`
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: serverUrl })
    await client.connect()
    try {
      await client.query(statement)
    } finally {
      await client.end()
    }
  }
  await admin(`CREATE DATABASE "${name}"`)
  const url = new URL(serverUrl)
  url.pathname = `/${name}`
  return {
    name,
    url: url.toString(),
    drop: () => admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
  }
}

function postgresTarget(serverUrl: string): Target {
  return {
    dialect: 'postgres',
    async create() {
      const { url, drop } = await createPgDatabase(serverUrl)
      return { settings: { databaseUrl: url }, drop }
    },
  }
}

function targets(only?: Dialect[]): Target[] {
  const all = [sqliteTarget]
  const pgUrl = process.env.TEST_DATABASE_URL
  if (pgUrl) all.push(postgresTarget(pgUrl))
  return only ? all.filter((t) => only.includes(t.dialect)) : all
}

/**
 * Runs the suite once per database: SQLite always, PostgreSQL too when TEST_DATABASE_URL
 * points at a server (a database is created for the file and dropped after). Each run gets a
 * fresh, migrated and seeded database. Read `ctx` inside tests and hooks, not at collection.
 */
export function describeEachDatabase(
  name: string,
  suite: (ctx: TestContext) => void,
  options: { only?: Dialect[] } = {},
) {
  const chosen = targets(options.only)
  // A PostgreSQL-only suite without TEST_DATABASE_URL shows as skipped, not as a file without
  // tests (which Vitest counts as a failure).
  if (!chosen.length) describe.skip(`${name} (needs TEST_DATABASE_URL)`, () => it.skip(name))
  for (const target of chosen) {
    describe(`${name} [${target.dialect}]`, () => {
      const ctx = { dialect: target.dialect } as TestContext
      let store: Db | undefined
      let drop: (() => Promise<void>) | undefined

      beforeAll(async () => {
        const created = await target.create()
        // Receipt photos and slider pictures go to folders of the suite's own.
        const receiptsDir = mkdtempSync(join(tmpdir(), 'store-receipts-'))
        const sliderDir = mkdtempSync(join(tmpdir(), 'store-slider-'))
        drop = async () => {
          await created.drop()
          rmSync(receiptsDir, { recursive: true, force: true })
          rmSync(sliderDir, { recursive: true, force: true })
        }
        const defaults = testConfig()
        const config = testConfig({
          ...created.settings,
          receipts: { ...defaults.receipts, dir: receiptsDir },
          sliderDir,
        })
        store = createDb(config)
        await migrateToLatest(store.db, store.dialect)
        await seedDemo(store.db, new Date(), testPasswords)
        const db = store.db
        const clock = new TestClock()
        const passwords = testPasswords
        Object.assign(ctx, {
          db,
          config,
          clock,
          app: createApp({ db, config, clock, passwords }),
          appWith: (overrides: Partial<Config>) =>
            createApp({ db, config: { ...config, ...overrides }, clock, passwords }),
        })
      })

      afterAll(async () => {
        await store?.destroy()
        await drop?.()
      })

      suite(ctx)
    })
  }
}
