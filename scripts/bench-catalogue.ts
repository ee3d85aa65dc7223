/**
 * `npm run bench:catalogue`: throughput and latency of the public catalogue reads of the real
 * server, with autocannon over loopback.
 *
 * Starts `server/main.ts` on a fresh SQLite database with the demo content (DEMO=1,
 * NODE_ENV=development), or on PostgreSQL when BENCH_DATABASE_URL is set (a fresh database is
 * created there and dropped). Each URL is warmed up, then loaded BENCH_RUNS times (default 3)
 * for BENCH_SECONDS (default 5) from BENCH_CONNECTIONS connections (default 32); the table
 * shows the median of the runs' requests per second, and the p50 and p99 latency of the run
 * with the median throughput. Any reply other than 200 is counted and fails the benchmark.
 *
 * BENCH_JSON=1 adds one line `{"bench":"catalogue",...}` with the figures, for `npm run bench`.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { boundedInt, freePort, waitForServer } from './lib/server'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import autocannon from 'autocannon'
import pg from 'pg'

const ROOT = join(import.meta.dirname, '..')
const RUNS = boundedInt('BENCH_RUNS', 3, 1, 20)
const SECONDS = boundedInt('BENCH_SECONDS', 5, 1, 120)
const CONNECTIONS = boundedInt('BENCH_CONNECTIONS', 32, 1, 1000)
const WARMUP_SECONDS = 2
const PG_URL = process.env.BENCH_DATABASE_URL

/** What the storefront reads, in both languages where the reply has one (docs/api.md). */
const URLS = [
  '/api/products?local=en',
  '/api/products?local=ar',
  '/api/products?per_page=300&local=en',
  '/api/products/1?local=en',
  '/api/products/1?local=ar',
  '/api/products/1/packages?per_page=300&local=en',
  '/api/products/packages/1?local=ar',
  '/api/products/by-group/1?local=en',
  '/api/website/info',
  '/api/slider/images',
]

async function startServer(env: Record<string, string>) {
  const port = await freePort()
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOST: '127.0.0.1',
      PORT: String(port),
      // The demo catalogue is what is read; demo data is refused in production.
      NODE_ENV: 'development',
      DEMO: '1',
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info',
      DIST_DIR: join(tmpdir(), 'no-dist'),
      DATABASE_URL: '',
      NODE_OPTIONS: process.env.BENCH_NODE_OPTIONS ?? '',
      ...env,
    },
    // The server's request log is not the benchmark's output.
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const url = `http://127.0.0.1:${port}`
  await waitForServer(child, url)
  return {
    url,
    stop: async () => {
      child.kill('SIGTERM')
      await exited
    },
  }
}

interface Run {
  requestsPerSecond: number
  p50: number
  p99: number
  failures: number
}

async function load(url: string, seconds: number): Promise<Run> {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: seconds })
  return {
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    failures: result.non2xx + result.errors + result.timeouts,
  }
}

export interface CatalogueFigure {
  path: string
  requestsPerSecond: number
  p50: number
  p99: number
  failures: number
}

async function benchUrl(base: string, path: string): Promise<CatalogueFigure> {
  const first = await fetch(base + path)
  if (first.status !== 200) throw new Error(`${path} answered ${first.status}`)
  await load(base + path, WARMUP_SECONDS)
  const runs: Run[] = []
  for (let i = 0; i < RUNS; i++) runs.push(await load(base + path, SECONDS))
  const sorted = [...runs].sort((a, b) => a.requestsPerSecond - b.requestsPerSecond)
  const middle = sorted[Math.floor(sorted.length / 2)]!
  return {
    path,
    requestsPerSecond: middle.requestsPerSecond,
    p50: middle.p50,
    p99: middle.p99,
    failures: runs.reduce((n, r) => n + r.failures, 0),
  }
}

async function adminQuery(url: string, text: string) {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    await client.query(text)
  } finally {
    await client.end()
  }
}

async function withDatabase<T>(run: (env: Record<string, string>) => Promise<T>): Promise<T> {
  if (PG_URL) {
    const name = `store_bench_catalogue_${process.pid}_${randomBytes(3).toString('hex')}`
    await adminQuery(PG_URL, `CREATE DATABASE "${name}"`)
    try {
      const url = new URL(PG_URL)
      url.pathname = `/${name}`
      return await run({ DATABASE_URL: url.toString() })
    } finally {
      await adminQuery(PG_URL, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)
    }
  }
  const dir = mkdtempSync(join(tmpdir(), 'store-bench-catalogue-'))
  try {
    return await run({ SQLITE_PATH: join(dir, 'store.db') })
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

const database = PG_URL ? 'postgres' : 'sqlite'
console.log(
  `Catalogue benchmark (${database}): ${CONNECTIONS} connections, ${RUNS} runs of ${SECONDS} s ` +
    `per URL after ${WARMUP_SECONDS} s of warm-up, over HTTP on loopback\n`,
)
const figures = await withDatabase(async (env) => {
  const server = await startServer(env)
  try {
    const out: CatalogueFigure[] = []
    for (const path of URLS) {
      const figure = await benchUrl(server.url, path)
      out.push(figure)
      console.log(
        `${path.padEnd(48)} ${figure.requestsPerSecond.toFixed(0).padStart(7)} req/s   ` +
          `p50 ${figure.p50.toFixed(1).padStart(5)} ms   p99 ${figure.p99.toFixed(1).padStart(5)} ms` +
          (figure.failures > 0 ? `   ${figure.failures} FAILED` : ''),
      )
    }
    return out
  } finally {
    await server.stop()
  }
})

if (process.env.BENCH_JSON === '1') {
  console.log(JSON.stringify({ bench: 'catalogue', database, connections: CONNECTIONS, figures }))
}
if (figures.some((f) => f.failures > 0)) {
  console.error('\nSome requests failed: see above.')
  process.exit(1)
}
