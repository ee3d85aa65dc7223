/**
 * `npm run bench:orders`: order throughput and latency of the real server, on SQLite and on
 * PostgreSQL when one is reachable (BENCH_DATABASE_URL, default
 * postgres://postgres@127.0.0.1:5432/postgres; a fresh database is created and dropped).
 *
 * For each database: start `server/main.ts` on a new database, create a user with a large
 * balance through the operator commands, send BENCH_ORDERS orders (default 2000) over HTTP
 * from BENCH_CONCURRENCY clients (default 16), each with its own Idempotency-Key, and print
 * orders/s with the p50 and p99 latency. Then check the ledger: every order answered 200,
 * balance = start - sum of order totals, one debit line per order adding up to the same sum.
 * A broken invariant prints why and exits 1. Loopback only; each run is capped in time.
 * BENCH_JSON=1 adds one line `{"bench":"orders",...}` for `npm run bench`.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { randomBytes, randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { runCli } from '../server/cli/run'
import { loadConfig } from '../server/config'
import { createDb, type Db } from '../server/db'
import { createSession } from '../server/services/sessions'
import { findUserByUsername } from '../server/services/users'

const ROOT = join(import.meta.dirname, '..')
const ORDERS = boundedInt('BENCH_ORDERS', 2000, 1, 100_000)
const CONCURRENCY = boundedInt('BENCH_CONCURRENCY', 16, 1, 256)
const RUN_LIMIT_MS = boundedInt('BENCH_TIME_LIMIT_SECONDS', 300, 10, 3600) * 1000
const PG_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'
/** iTunes $5 in the demo catalogue: 5.25 USD + 3 % = 5.4075 USD an order. */
const ITEM = { product: 27, name: 'iTunes $5' }

function boundedInt(name: string, fallback: number, min: number, max: number): number {
  const value = Number(process.env[name] ?? fallback)
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new Error(`${name} must be a whole number from ${min} to ${max}`)
  }
  return value
}

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

async function startServer(env: Record<string, string>) {
  const port = await freePort()
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOST: '127.0.0.1',
      PORT: String(port),
      // The demo catalogue is what the benchmark buys from; demo data is refused in production.
      NODE_ENV: 'development',
      DEMO: '1',
      LOG_LEVEL: 'error',
      DIST_DIR: join(tmpdir(), 'no-dist'),
      DATABASE_URL: '',
      ...env,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  })
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const url = `http://127.0.0.1:${port}`
  const deadline = Date.now() + 60_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`)
    try {
      if ((await fetch(`${url}/api/website/info`)).ok) break
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) throw new Error('the server did not start within 60 s')
    await new Promise((r) => setTimeout(r, 100))
  }
  return {
    url,
    stop: async () => {
      child.kill('SIGTERM')
      await exited
    },
  }
}

async function operator(store: Db, env: Record<string, string>, ...argv: string[]) {
  let out = ''
  let err = ''
  const code = await runCli(argv, {
    stdout: (t) => (out += t),
    stderr: (t) => (err += t),
    env: { NODE_ENV: 'production', ...env },
    store,
  })
  if (code !== 0) throw new Error(`operator ${argv[0]} failed (${code}): ${err || out}`)
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!

interface Result {
  name: string
  ordersPerSecond: number
  p50: number
  p99: number
  problems: string[]
}

async function bench(name: string, env: Record<string, string>): Promise<Result> {
  const server = await startServer(env)
  const config = loadConfig({ NODE_ENV: 'production', LOG_LEVEL: 'error', ...env })
  const store = createDb(config)
  try {
    // The customer, and money for every order, through the operator commands.
    const username = `bench_${randomBytes(3).toString('hex')}`
    await operator(
      store,
      env,
      'users:create',
      `--username=${username}`,
      `--phone=+96171${String(randomBytes(3).readUIntBE(0, 3) % 1_000_000).padStart(6, '0')}`,
      '--password=bench-pass-1',
    )
    await operator(store, env, 'wallet:credit', username, '1000000', '--reason', 'Benchmark')
    const user = (await findUserByUsername(store.db, username))!
    const token = await createSession(store.db, user.id, { fcmToken: null, now: new Date() })
    const pkg = await store.db
      .selectFrom('packages')
      .select('id')
      .where('product_id', '=', ITEM.product)
      .where('name_en', '=', ITEM.name)
      .executeTakeFirstOrThrow()
    const start = user.balance

    const latencies: number[] = []
    const failures: string[] = []
    let next = 0
    const deadline = Date.now() + RUN_LIMIT_MS
    const began = performance.now()
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < ORDERS && Date.now() < deadline) {
          next++
          const form = new FormData()
          form.append('package_id', String(pkg.id))
          form.append('quantity', '1')
          const sent = performance.now()
          const res = await fetch(`${server.url}/api/automated/get/packages`, {
            method: 'POST',
            body: form,
            headers: { authorization: `Bearer ${token}`, 'Idempotency-Key': randomUUID() },
          })
          const body = await res.text()
          latencies.push(performance.now() - sent)
          if (res.status !== 200) failures.push(`${res.status} ${body.slice(0, 200)}`)
        }
      }),
    )
    const seconds = (performance.now() - began) / 1000

    // The ledger must add up whatever the speed.
    const problems: string[] = []
    if (latencies.length < ORDERS) {
      problems.push(`only ${latencies.length} of ${ORDERS} orders within the time limit`)
    }
    if (failures.length > 0) {
      problems.push(`${failures.length} orders failed, first: ${failures[0]}`)
    }
    const orders = await store.db
      .selectFrom('orders')
      .select('total_price')
      .where('user_id', '=', user.id)
      .execute()
    const debits = await store.db
      .selectFrom('wallet_logs')
      .select('value')
      .where('user_id', '=', user.id)
      .where('status', '=', 'Discounted')
      .execute()
    const { balance } = await store.db
      .selectFrom('users')
      .select('balance')
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow()
    const ordersTotal = orders.reduce((sum, o) => sum + o.total_price, 0n)
    const debitsTotal = debits.reduce((sum, d) => sum + d.value, 0n)
    if (orders.length !== latencies.length - failures.length) {
      problems.push(
        `${orders.length} orders stored for ${latencies.length - failures.length} placed`,
      )
    }
    if (debits.length !== orders.length) {
      problems.push(`${debits.length} debit lines for ${orders.length} orders`)
    }
    if (debitsTotal !== ordersTotal) {
      problems.push(`debit lines add up to ${debitsTotal}, orders to ${ordersTotal} micro-units`)
    }
    if (balance !== start - ordersTotal) {
      problems.push(`balance ${balance} is not ${start} - ${ordersTotal} micro-units`)
    }
    const sorted = [...latencies].sort((a, b) => a - b)
    return {
      name,
      ordersPerSecond: latencies.length / seconds,
      p50: percentile(sorted, 50),
      p99: percentile(sorted, 99),
      problems,
    }
  } finally {
    await store.destroy()
    await server.stop()
  }
}

async function postgresReachable(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 })
  try {
    await client.connect()
    await client.query('select 1')
    return true
  } catch {
    return false
  } finally {
    await client.end().catch(() => {})
  }
}

async function adminQuery(url: string, sql: string) {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    await client.query(sql)
  } finally {
    await client.end()
  }
}

const results: Result[] = []
console.log(
  `Orders benchmark: ${ORDERS} orders, ${CONCURRENCY} concurrent clients, over HTTP on loopback\n`,
)

const dir = mkdtempSync(join(tmpdir(), 'store-bench-orders-'))
try {
  results.push(await bench('sqlite', { SQLITE_PATH: join(dir, 'store.db') }))
} finally {
  rmSync(dir, { recursive: true, force: true })
}

const safeUrl = PG_URL.replace(/\/\/[^@/]*@/, '//')
if (await postgresReachable(PG_URL)) {
  const name = `store_bench_${process.pid}_${randomBytes(3).toString('hex')}`
  await adminQuery(PG_URL, `CREATE DATABASE "${name}"`)
  try {
    const url = new URL(PG_URL)
    url.pathname = `/${name}`
    results.push(await bench('postgres', { DATABASE_URL: url.toString() }))
  } finally {
    await adminQuery(PG_URL, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)
  }
} else {
  console.log(`PostgreSQL is not reachable at ${safeUrl}: skipped (set BENCH_DATABASE_URL).\n`)
}

let broken = false
for (const r of results) {
  console.log(
    `${r.name.padEnd(9)} ${r.ordersPerSecond.toFixed(0).padStart(6)} orders/s   ` +
      `p50 ${r.p50.toFixed(1).padStart(6)} ms   p99 ${r.p99.toFixed(1).padStart(6)} ms   ` +
      (r.problems.length === 0 ? 'ledger OK' : 'LEDGER BROKEN'),
  )
  for (const problem of r.problems) {
    broken = true
    console.error(`  !!! ${r.name}: ${problem}`)
  }
}
if (process.env.BENCH_JSON === '1') {
  // One line for `npm run bench`.
  console.log(
    JSON.stringify({ bench: 'orders', orders: ORDERS, concurrency: CONCURRENCY, results }),
  )
}
if (broken) {
  console.error('\nINVARIANTS BROKEN: see above.')
  process.exit(1)
}
