import { spawn, type ChildProcess } from 'node:child_process'
import { randomBytes, randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { afterAll, describe, expect, it } from 'vitest'
import { toMicros } from '../src/domain/money'
import { testConfig } from './test/context'
import { createDb } from './db'
import { createSession } from './services/sessions'
import { insertUser } from './services/users'

/*
 * Crash safety of the ledger: the real server is killed with SIGKILL while orders stream in,
 * then started again on the same database. Every order must have its debit line and every
 * debit line its order, the balance must be the start less the orders, every order the
 * client saw succeed must be there, and a retry of a request whose answer was lost must not
 * pay twice.
 */

const ROOT = join(import.meta.dirname, '..')
const tmp = mkdtempSync(join(tmpdir(), 'store-crash-'))
afterAll(() => rmSync(tmp, { recursive: true, force: true }))

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address()
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0))
    })
  })
}

interface Server {
  child: ChildProcess
  url: string
  exited: Promise<number | null>
}

/** `server/main.ts` in its own Node process (tsx as a loader: one process to kill). */
async function startServer(env: Record<string, string>): Promise<Server> {
  const port = await freePort()
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOST: '127.0.0.1',
      PORT: String(port),
      NODE_ENV: 'test',
      // The orders buy from the demo catalogue.
      DEMO: '1',
      LOG_LEVEL: 'silent',
      DIST_DIR: join(tmp, 'no-dist'),
      DATABASE_URL: '',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve))
  const url = `http://127.0.0.1:${port}`
  const deadline = Date.now() + 30_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`)
    try {
      if ((await fetch(`${url}/api/website/info`)).ok) break
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) throw new Error('the server did not start within 30 s')
    await new Promise((r) => setTimeout(r, 100))
  }
  return { child, url, exited }
}

interface Target {
  name: string
  create(): Promise<{ env: Record<string, string>; drop(): Promise<void> }>
}

const targets: Target[] = [
  {
    name: 'sqlite',
    create: async () => ({
      env: { SQLITE_PATH: join(tmp, `crash-${randomBytes(4).toString('hex')}.db`) },
      drop: async () => {},
    }),
  },
]
const pgUrl = process.env.TEST_DATABASE_URL
if (pgUrl) {
  targets.push({
    name: 'postgres',
    async create() {
      const name = `store_crash_${process.pid}_${randomBytes(4).toString('hex')}`
      const admin = async (sql: string) => {
        const client = new pg.Client({ connectionString: pgUrl })
        await client.connect()
        try {
          await client.query(sql)
        } finally {
          await client.end()
        }
      }
      await admin(`CREATE DATABASE "${name}"`)
      const url = new URL(pgUrl)
      url.pathname = `/${name}`
      return {
        env: { DATABASE_URL: url.toString() },
        drop: () => admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
      }
    },
  })
}

interface Attempt {
  key: string
  status: number | 'lost'
  orderId?: number
}

describe('orders survive SIGKILL', () => {
  for (const target of targets) {
    it(
      `keeps every order and its debit together [${target.name}]`,
      { timeout: 120_000 },
      async () => {
        const { env, drop } = await target.create()
        let server = await startServer(env)
        const store = createDb(
          testConfig({
            databaseUrl: env.DATABASE_URL || undefined,
            sqlitePath: env.SQLITE_PATH ?? '',
          }),
        )
        try {
          const now = new Date()
          const start = toMicros('100000')
          const user = await insertUser(
            store.db,
            {
              username: 'crash_test',
              phone_number: '+96171999001',
              email: null,
              password_hash: 'not-used',
              type: 'CUSTOMER',
              currency: 'USD',
              locale: 'en',
              balance: start,
            },
            now,
          )
          const token = await createSession(store.db, user.id, { fcmToken: null, now })
          const pkg = await store.db
            .selectFrom('packages')
            .select('id')
            .where('product_id', '=', 27)
            .where('name_en', '=', 'iTunes $5')
            .executeTakeFirstOrThrow()

          const send = async (base: string, key: string): Promise<Attempt> => {
            const form = new FormData()
            form.append('package_id', String(pkg.id))
            form.append('quantity', '1')
            try {
              const res = await fetch(`${base}/api/automated/get/packages`, {
                method: 'POST',
                body: form,
                headers: { authorization: `Bearer ${token}`, 'Idempotency-Key': key },
              })
              const body = (await res.json()) as { data?: { id: number } }
              return { key, status: res.status, orderId: body.data?.id }
            } catch {
              return { key, status: 'lost' }
            }
          }

          // Stream orders from 8 clients; kill the server once 120 have been answered.
          const attempts: Attempt[] = []
          let stop = false
          const killed = (async () => {
            while (attempts.filter((a) => a.status === 200).length < 120) {
              await new Promise((r) => setTimeout(r, 5))
            }
            server.child.kill('SIGKILL')
            stop = true
          })()
          await Promise.all(
            Array.from({ length: 8 }, async () => {
              while (!stop) {
                const attempt = await send(server.url, randomUUID())
                attempts.push(attempt)
                if (attempt.status === 'lost') break
              }
            }),
          )
          await killed
          expect(await server.exited).toBe(null) // killed by a signal, not exited
          const lost = attempts.filter((a) => a.status === 'lost')
          expect(attempts.filter((a) => a.status !== 200 && a.status !== 'lost')).toEqual([])

          // Same database, new process: it starts, and retries of the lost requests are safe.
          server = await startServer(env)
          const retried = await Promise.all(lost.map((a) => send(server.url, a.key)))
          expect(retried.map((a) => a.status)).toEqual(lost.map(() => 200))
          const again = await Promise.all(lost.map((a) => send(server.url, a.key)))
          expect(again.map((a) => a.orderId)).toEqual(retried.map((a) => a.orderId))

          const orders = await store.db
            .selectFrom('orders')
            .select(['id', 'total_price'])
            .where('user_id', '=', user.id)
            .execute()
          const debits = await store.db
            .selectFrom('wallet_logs')
            .select(['name', 'value'])
            .where('user_id', '=', user.id)
            .where('status', '=', 'Discounted')
            .execute()
          const keys = await store.db
            .selectFrom('idempotency_keys')
            .select(['key', 'order_id'])
            .where('user_id', '=', user.id)
            .execute()
          const orderIds = new Set(orders.map((o) => o.id))
          const debitIds = debits.map((d) => Number(/^Order #(\d+):/.exec(d.name)?.[1]))
          expect(new Set(debitIds)).toEqual(orderIds)
          expect(debitIds).toHaveLength(orders.length)
          expect(keys.map((k) => k.order_id).sort((a, b) => a! - b!)).toEqual(
            [...orderIds].sort((a, b) => a - b),
          )
          // Every order the client saw placed is there, and nothing else.
          const acknowledged = [...attempts, ...retried]
            .filter((a) => a.status === 200)
            .map((a) => a.orderId)
          expect(new Set(acknowledged)).toEqual(orderIds)
          const total = orders.reduce((sum, o) => sum + o.total_price, 0n)
          const { balance } = await store.db
            .selectFrom('users')
            .select('balance')
            .where('id', '=', user.id)
            .executeTakeFirstOrThrow()
          expect(balance).toBe(start - total)
          expect(total).toBe(BigInt(orders.length) * 5_407_500n)
          expect(orders.length).toBeGreaterThanOrEqual(120)
        } finally {
          server.child.kill('SIGTERM')
          await server.exited
          await store.destroy()
          await drop()
        }
      },
    )
  }
})
