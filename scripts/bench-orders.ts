/**
 * `npm run bench:orders`: order throughput and latency of the real server, on SQLite and on
 * PostgreSQL when one is reachable (BENCH_DATABASE_URL, default
 * postgres://postgres@127.0.0.1:5432/postgres; a fresh database is created and dropped).
 *
 * For each database: start `server/main.ts` on a new database, make BENCH_WALLETS wallets
 * (default 1000) with a large balance each, and one more through the operator commands. Then,
 * first across the many wallets, then all on the one hot wallet (every order waits for the
 * one before on that balance), send BENCH_ORDERS orders (default 10,000) over HTTP from
 * BENCH_CONCURRENCY clients (default 16), each with its own Idempotency-Key, BENCH_RUNS times
 * (default 3), after BENCH_WARMUP unmeasured orders (default 1000), and print the medians of
 * orders/s, p50 and p99 latency, the server's CPU time per order, this script's own (the
 * client shares the machine's cores with the server, so it sends a prebuilt body over
 * node:http rather than fetch and FormData) and the whole machine's, and the load average at
 * the end. Then check the ledger of every wallet: every order answered 200, one debit
 * line per order adding up to the orders, balance = start - sum of order totals. A broken
 * invariant prints why and exits 1. Loopback only; each run is capped in time.
 * BENCH_DATABASES=sqlite or =postgres runs one of the two (default: both).
 * BENCH_JSON=1 adds one line `{"bench":"orders",...}` (the medians) for `npm run bench`.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { randomBytes, randomUUID } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { Agent, request } from 'node:http'
import { boundedInt, freePort, waitForServer } from './lib/server'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { toMicros } from '../src/domain/money'
import { runCli } from '../server/cli/run'
import { loadConfig } from '../server/config'
import { createDb, type Db } from '../server/db'
import { createSession } from '../server/services/sessions'
import { findUserByUsername, insertUser } from '../server/services/users'
import { creditWallet } from '../server/services/wallet'

const ROOT = join(import.meta.dirname, '..')
const ORDERS = boundedInt('BENCH_ORDERS', 10_000, 1, 100_000)
const CONCURRENCY = boundedInt('BENCH_CONCURRENCY', 16, 1, 256)
const WALLETS = boundedInt('BENCH_WALLETS', 1000, 1, 100_000)
const RUNS = boundedInt('BENCH_RUNS', 3, 1, 20)
const WARMUP = boundedInt('BENCH_WARMUP', 1000, 0, 100_000)
const RUN_LIMIT_MS = boundedInt('BENCH_TIME_LIMIT_SECONDS', 300, 10, 3600) * 1000
const DATABASES = (process.env.BENCH_DATABASES ?? 'sqlite,postgres').split(',')
/** The server's SQLITE_SYNCHRONOUS (FULL, each order on disk before its reply, unless told). */
const SQLITE_SYNCHRONOUS = (process.env.SQLITE_SYNCHRONOUS ?? 'FULL').toUpperCase()
const unknownNames = DATABASES.filter((name) => name !== 'sqlite' && name !== 'postgres')
if (unknownNames.length > 0) {
  console.error(
    `BENCH_DATABASES: unknown ${unknownNames.join(', ')}; use sqlite, postgres or both.`,
  )
  process.exit(1)
}
const PG_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'
/** iTunes $5 in the demo catalogue: 5.25 USD + 3 % = 5.4075 USD an order. */
const ITEM = { product: 27, name: 'iTunes $5' }

async function startServer(env: Record<string, string>) {
  const port = await freePort()
  // BENCH_CPU_PROF=<dir>: the server writes a V8 CPU profile there when it stops.
  const profile = process.env.BENCH_CPU_PROF
  const flags = profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : []
  const child: ChildProcess = spawn(
    process.execPath,
    [...flags, '--import', 'tsx', 'server/main.ts'],
    {
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
    },
  )
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const url = `http://127.0.0.1:${port}`
  await waitForServer(child, url)
  return {
    url,
    pid: child.pid,
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
    env: { NODE_ENV: 'development', ...env },
    store,
  })
  if (code !== 0) throw new Error(`operator ${argv[0]} failed (${code}): ${err || out}`)
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!

/** CPU seconds (user + system) a process has used so far, from /proc; undefined elsewhere. */
function cpuSeconds(pid: number | undefined): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    // utime and stime, in clock ticks (100 a second on Linux).
    return (Number(fields[11]) + Number(fields[12])) / 100
  } catch {
    return undefined
  }
}

/**
 * CPU seconds the whole machine has spent busy (user, nice, system, irq, softirq; not idle,
 * I/O wait or steal), from /proc/stat; undefined elsewhere. With the server, this script and
 * the database's own processes on the same cores, this per order is what caps orders/s.
 */
function machineCpuSeconds(): number | undefined {
  try {
    const fields = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!.trim().split(/\s+/)
    const [user, nice, system, , , irq, softirq] = fields.slice(1).map(Number)
    return (user! + nice! + system! + irq! + softirq!) / 100
  } catch {
    return undefined
  }
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor((sorted.length - 1) / 2)]!
}

interface Wallet {
  id: number
  token: string
}

interface Run {
  ordersPerSecond: number
  p50: number
  p99: number
  /** The server's CPU time per order, in ms: steadier than orders/s on a shared machine. */
  cpuMs: number | undefined
  /** The whole machine's busy CPU time per order, in ms: the server, the client, the database. */
  machineCpuMs: number | undefined
  /**
   * This script's own CPU time per order, in ms: the load it puts on the same cores.
   */
  clientCpuMs: number
}

interface Result {
  name: string
  runs: Run[]
  problems: string[]
}

/** One POST on a kept-alive connection: its status and body text. */
function post(
  agent: Agent,
  hostname: string,
  port: string,
  path: string,
  headers: Record<string, string>,
  body: Buffer,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ agent, hostname, port, path, method: 'POST', headers }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString() }),
      )
      res.on('error', reject)
    })
    req.on('error', reject)
    req.end(body)
  })
}

/** Sends ORDERS orders from CONCURRENCY clients, order i paid from wallet i mod N. */
async function orderLoad(
  server: { url: string; pid: number | undefined },
  wallets: readonly Wallet[],
  packageId: number,
  failures: string[],
  count = ORDERS,
): Promise<{ run: Run; placed: number }> {
  const latencies: number[] = []
  let next = 0
  const deadline = Date.now() + RUN_LIMIT_MS
  const cpuBefore = cpuSeconds(server.pid)
  const machineBefore = machineCpuSeconds()
  const clientBefore = process.cpuUsage()
  const began = performance.now()
  // One urlencoded body for every order, sent over kept-alive node:http connections: fetch
  // and FormData cost this process about as much CPU as the server's side of an order, on the
  // same two cores.
  const body = Buffer.from(`package_id=${packageId}&quantity=1`)
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY })
  const { hostname, port } = new URL(server.url)
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < count && Date.now() < deadline) {
        const wallet = wallets[next++ % wallets.length]!
        const headers = {
          authorization: `Bearer ${wallet.token}`,
          'idempotency-key': randomUUID(),
          'content-type': 'application/x-www-form-urlencoded',
          'content-length': String(body.length),
        }
        const send = () => post(agent, hostname, port, '/api/automated/get/packages', headers, body)
        const sent = performance.now()
        // A kept-alive connection the server closed while idle fails the write (EPIPE); the
        // order goes again with its key, as a customer's retry would, and is charged once.
        const res = await send().catch(send)
        latencies.push(performance.now() - sent)
        if (res.status !== 200) failures.push(`${res.status} ${res.text.slice(0, 200)}`)
      }
    }),
  )
  agent.destroy()
  const seconds = (performance.now() - began) / 1000
  const cpuAfter = cpuSeconds(server.pid)
  const machineAfter = machineCpuSeconds()
  const client = process.cpuUsage(clientBefore)
  const sorted = [...latencies].sort((a, b) => a - b)
  return {
    placed: latencies.length,
    run: {
      ordersPerSecond: latencies.length / seconds,
      p50: percentile(sorted, 50),
      p99: percentile(sorted, 99),
      cpuMs:
        cpuBefore === undefined || cpuAfter === undefined || latencies.length === 0
          ? undefined
          : ((cpuAfter - cpuBefore) * 1000) / latencies.length,
      machineCpuMs:
        machineBefore === undefined || machineAfter === undefined || latencies.length === 0
          ? undefined
          : ((machineAfter - machineBefore) * 1000) / latencies.length,
      clientCpuMs: (client.user + client.system) / 1000 / Math.max(1, latencies.length),
    },
  }
}

/**
 * The ledger must add up whatever the speed: for every wallet, one order and one debit line
 * per successful call, debit lines adding up to the orders, balance = start - orders.
 */
async function ledgerProblems(
  store: Db,
  wallets: readonly Wallet[],
  start: Map<number, bigint>,
  answered: number,
): Promise<string[]> {
  const problems: string[] = []
  const ids = wallets.map((w) => w.id)
  const orders = await store.db
    .selectFrom('orders')
    .select(['user_id', 'total_price'])
    .where('user_id', 'in', ids)
    .execute()
  const debits = await store.db
    .selectFrom('wallet_logs')
    .select(['user_id', 'value'])
    .where('user_id', 'in', ids)
    .where('status', '=', 'Discounted')
    .execute()
  const users = await store.db
    .selectFrom('users')
    .select(['id', 'balance'])
    .where('id', 'in', ids)
    .execute()
  if (orders.length !== answered) {
    problems.push(`${orders.length} orders stored for ${answered} answered 200`)
  }
  if (debits.length !== orders.length) {
    problems.push(`${debits.length} debit lines for ${orders.length} orders`)
  }
  const add = (map: Map<number, bigint>, id: number, value: bigint) =>
    map.set(id, (map.get(id) ?? 0n) + value)
  const ordered = new Map<number, bigint>()
  const debited = new Map<number, bigint>()
  for (const o of orders) add(ordered, o.user_id, o.total_price)
  for (const d of debits) add(debited, d.user_id, d.value)
  for (const user of users) {
    const spent = ordered.get(user.id) ?? 0n
    if ((debited.get(user.id) ?? 0n) !== spent) {
      problems.push(
        `user ${user.id}: debit lines add up to ${debited.get(user.id) ?? 0n}, orders to ${spent}`,
      )
    }
    if (user.balance !== start.get(user.id)! - spent) {
      problems.push(
        `user ${user.id}: balance ${user.balance} is not ${start.get(user.id)} - ${spent}`,
      )
    }
  }
  return problems.slice(0, 10)
}

/** Wallets with money, credited the way an operator does (a Charged line each). */
async function makeWallets(store: Db, count: number): Promise<Wallet[]> {
  const now = new Date()
  const wallets: Wallet[] = []
  for (let i = 0; i < count; i += 50) {
    const batch = Array.from({ length: Math.min(50, count - i) }, (_, j) => i + j)
    wallets.push(
      ...(await Promise.all(
        batch.map(async (n) => {
          const user = await insertUser(
            store.db,
            {
              username: `wallet_${n}`,
              phone_number: `+96176${String(n).padStart(6, '0')}`,
              email: null,
              password_hash: 'not-used',
              type: 'CUSTOMER',
              currency: 'USD',
              locale: 'en',
            },
            now,
          )
          await creditWallet(store.db, user.id, {
            amount: toMicros('1000000'),
            currency: 'USD',
            name: () => 'Benchmark',
            rate: 1,
            now,
          })
          const token = await createSession(store.db, user.id, { fcmToken: null, now })
          return { id: user.id, token }
        }),
      )),
    )
  }
  return wallets
}

async function bench(dialect: string, env: Record<string, string>): Promise<Result[]> {
  const server = await startServer(env)
  const config = loadConfig({ NODE_ENV: 'development', LOG_LEVEL: 'error', ...env })
  const store = createDb(config)
  try {
    // The one hot wallet: made and credited through the operator commands.
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
    const hot: Wallet = {
      id: user.id,
      token: await createSession(store.db, user.id, { fcmToken: null, now: new Date() }),
    }
    const many = await makeWallets(store, WALLETS)
    const pkg = await store.db
      .selectFrom('packages')
      .select('id')
      .where('product_id', '=', ITEM.product)
      .where('name_en', '=', ITEM.name)
      .executeTakeFirstOrThrow()

    const results: Result[] = []
    for (const [label, wallets] of [
      [`${WALLETS.toLocaleString('en')} wallets`, many],
      ['1 hot wallet', [hot]],
    ] as const) {
      const balances = await store.db
        .selectFrom('users')
        .select(['id', 'balance'])
        .where(
          'id',
          'in',
          wallets.map((w) => w.id),
        )
        .execute()
      const start = new Map(balances.map((b) => [b.id, b.balance]))
      const failures: string[] = []
      const runs: Run[] = []
      // Unmeasured orders first, so that the runs time the server's steady state rather than
      // its JIT warm-up; the ledger counts them as any other.
      let placed = (await orderLoad(server, wallets, pkg.id, failures, WARMUP)).placed
      for (let i = 0; i < RUNS; i++) {
        const load = await orderLoad(server, wallets, pkg.id, failures)
        runs.push(load.run)
        placed += load.placed
      }
      const problems: string[] = []
      if (placed < ORDERS * RUNS + WARMUP) {
        problems.push(`only ${placed} of ${ORDERS * RUNS + WARMUP} orders within the time limit`)
      }
      if (failures.length > 0) {
        problems.push(`${failures.length} orders failed, first: ${failures[0]}`)
      }
      problems.push(...(await ledgerProblems(store, wallets, start, placed - failures.length)))
      results.push({ name: `${dialect}, ${label}`, runs, problems })
    }
    return results
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

if (DATABASES.includes('sqlite')) {
  const dir = mkdtempSync(join(tmpdir(), 'store-bench-orders-'))
  try {
    results.push(
      ...(await bench(`sqlite (synchronous ${SQLITE_SYNCHRONOUS})`, {
        SQLITE_PATH: join(dir, 'store.db'),
        SQLITE_SYNCHRONOUS,
      })),
    )
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

const safeUrl = PG_URL.replace(/\/\/[^@/]*@/, '//')
const postgres = DATABASES.includes('postgres')
if (postgres && (await postgresReachable(PG_URL))) {
  const name = `store_bench_${process.pid}_${randomBytes(3).toString('hex')}`
  await adminQuery(PG_URL, `CREATE DATABASE "${name}"`)
  try {
    const url = new URL(PG_URL)
    url.pathname = `/${name}`
    results.push(...(await bench('postgres', { DATABASE_URL: url.toString() })))
  } finally {
    await adminQuery(PG_URL, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)
  }
} else if (postgres) {
  console.log(`PostgreSQL is not reachable at ${safeUrl}: skipped (set BENCH_DATABASE_URL).\n`)
}

let broken = false
console.log(
  `${'database, wallets'.padEnd(28)} ${'orders/s'.padStart(8)} ${'p50 ms'.padStart(8)} ` +
    `${'p99 ms'.padStart(8)} ${'CPU ms/order'.padStart(13)} ${'client CPU'.padStart(11)} ` +
    `${'all CPU'.padStart(8)}   ledger`,
)
/** The median of the runs' figures, or '-' where /proc could not give them. */
const medianOf = (values: (number | undefined)[]) => {
  const known = values.filter((ms) => ms !== undefined)
  return known.length > 0 ? median(known).toFixed(2) : '-'
}
for (const r of results) {
  console.log(
    `${r.name.padEnd(28)} ${median(r.runs.map((run) => run.ordersPerSecond))
      .toFixed(0)
      .padStart(8)} ` +
      `${median(r.runs.map((run) => run.p50))
        .toFixed(1)
        .padStart(8)} ` +
      `${median(r.runs.map((run) => run.p99))
        .toFixed(1)
        .padStart(8)} ` +
      `${medianOf(r.runs.map((run) => run.cpuMs)).padStart(13)} ` +
      `${median(r.runs.map((run) => run.clientCpuMs))
        .toFixed(2)
        .padStart(11)} ` +
      `${medianOf(r.runs.map((run) => run.machineCpuMs)).padStart(8)}   ` +
      (r.problems.length === 0 ? 'OK' : 'BROKEN'),
  )
  for (const problem of r.problems) {
    broken = true
    console.error(`  !!! ${r.name}: ${problem}`)
  }
}
console.log(
  `\nMedians of ${RUNS} runs (BENCH_RUNS) of ${ORDERS} orders (BENCH_ORDERS) from ` +
    `${CONCURRENCY} clients (BENCH_CONCURRENCY), order i paid from wallet i mod N. ` +
    `CPU ms/order: the server process's CPU time (user + system) per order; client CPU: this ` +
    `script's, on the same cores; all CPU: the whole machine's busy time per order (server, ` +
    `client, database; not idle or steal).\nLoad average: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}.\nEach run:`,
)
for (const r of results) {
  const runs = r.runs.map(
    (run) => `${run.ordersPerSecond.toFixed(0)}/s p99 ${run.p99.toFixed(0)} ms`,
  )
  console.log(`  ${r.name.padEnd(26)} ${runs.join(' | ')}`)
}
if (process.env.BENCH_JSON === '1') {
  // One line for `npm run bench`: the medians of each case.
  const summary = results.map((r) => ({
    name: r.name,
    ordersPerSecond: median(r.runs.map((run) => run.ordersPerSecond)),
    p50: median(r.runs.map((run) => run.p50)),
    p99: median(r.runs.map((run) => run.p99)),
    cpuMs: median(r.runs.map((run) => run.cpuMs ?? Number.NaN)),
    machineCpuMs: median(r.runs.map((run) => run.machineCpuMs ?? Number.NaN)),
    clientCpuMs: median(r.runs.map((run) => run.clientCpuMs)),
    problems: r.problems,
  }))
  console.log(
    JSON.stringify({ bench: 'orders', orders: ORDERS, concurrency: CONCURRENCY, results: summary }),
  )
}
if (broken) {
  console.error('\nINVARIANTS BROKEN: see above.')
  process.exit(1)
}
