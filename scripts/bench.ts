/**
 * `npm run bench`: every benchmark, one after the other, and one table of their figures.
 *
 * 1. the bundle: `vite build`, then scripts/size.ts (the home route's first load, gzip);
 * 2. orders: scripts/bench-orders.ts (SQLite, and PostgreSQL when reachable);
 * 3. the catalogue reads: scripts/bench-catalogue.ts on SQLite, then on PostgreSQL when
 *    BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres) is reachable;
 * 4. Lighthouse: scripts/bench-lighthouse.ts on the build from step 1.
 * 5. offline: scripts/bench-offline.ts, a warm offline start on the same build.
 *
 * Each script runs in its own process with BENCH_JSON=1 and is read from the line
 * `{"bench": ...}` it prints; its own output goes to stderr as it comes, so the table is all
 * of stdout. A benchmark that fails or prints no figures shows as `failed` and the others
 * still run; the exit code is then 1. BENCH_SKIP=lighthouse,orders (any of size, orders,
 * catalogue, lighthouse, offline) leaves some out.
 */
import { spawn } from 'node:child_process'
import { join } from 'node:path'
import pg from 'pg'

const ROOT = join(import.meta.dirname, '..')
const PG_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'
const SKIP = new Set((process.env.BENCH_SKIP ?? '').split(',').map((s) => s.trim()))

interface Outcome {
  ok: boolean
  figures: Record<string, unknown> | undefined
  seconds: number
}

/** Runs a command with BENCH_JSON=1; its output is shown on stderr and its JSON line kept. */
function run(
  command: string,
  args: string[],
  bench: string | undefined,
  env: Record<string, string | undefined> = {},
): Promise<Outcome> {
  const started = performance.now()
  return new Promise((resolve) => {
    const childEnv: Record<string, string | undefined> = { ...process.env, BENCH_JSON: '1', ...env }
    // An undefined value takes the setting away (the catalogue on SQLite).
    for (const [key, value] of Object.entries(childEnv))
      if (value === undefined) delete childEnv[key]
    const child = spawn(command, args, {
      cwd: ROOT,
      env: childEnv,
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    let figures: Record<string, unknown> | undefined
    let pending = ''
    child.stdout.on('data', (chunk: Buffer) => {
      process.stderr.write(chunk)
      pending += chunk.toString()
      const lines = pending.split('\n')
      pending = lines.pop() ?? ''
      for (const line of lines) {
        if (!bench || !line.startsWith('{"bench":')) continue
        try {
          const parsed = JSON.parse(line) as Record<string, unknown>
          if (parsed.bench === bench) figures = parsed
        } catch {
          // Not the figures after all.
        }
      }
    })
    const done = (ok: boolean) =>
      resolve({ ok, figures, seconds: (performance.now() - started) / 1000 })
    child.once('error', () => done(false))
    child.once('exit', (code) => done(code === 0))
  })
}

const tsx = (script: string, bench: string, env?: Record<string, string | undefined>) =>
  run(process.execPath, ['--import', 'tsx', script], bench, env)

async function postgresReachable(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 })
  try {
    await client.connect()
    return true
  } catch {
    return false
  } finally {
    await client.end().catch(() => {})
  }
}

type Row = [
  benchmark: string,
  what: string,
  throughput: string,
  p50: string,
  p99: string,
  note: string,
]
const rows: Row[] = []
let failures = 0
const failed = (benchmark: string, what: string) => {
  failures++
  rows.push([benchmark, what, 'failed', '', '', ''])
}
const ms = (n: unknown) => (typeof n === 'number' ? `${n.toFixed(1)} ms` : '?')
const kib = (bytes: unknown) =>
  typeof bytes === 'number' ? `${(bytes / 1024).toFixed(1)} KiB` : '?'

console.error('== npm run bench ==')

if (!SKIP.has('size') || !SKIP.has('lighthouse') || !SKIP.has('offline')) {
  const build = await run('npm', ['run', '-s', 'build'], undefined)
  if (!build.ok) {
    failed('bundle size', 'vite build')
    if (!SKIP.has('lighthouse')) failed('lighthouse', 'needs the build')
    SKIP.add('size').add('lighthouse').add('offline')
  }
}

if (!SKIP.has('size')) {
  const size = await tsx('scripts/size.ts', 'size')
  const f = size.figures
  if (!f) failed('bundle size', 'home first load')
  else {
    // Over budget still prints its figures; the note says which.
    const over = (bytes: number) => (bytes > Number(f.budgetKiB) * 1024 ? ', OVER' : '')
    rows.push([
      'bundle size',
      `home first load (${String(f.homeFiles)} JS files)`,
      `${kib(f.homeGzipBytes)} gzip`,
      '',
      '',
      `${kib(f.homeBrotliBytes)} brotli; framework floor ${kib(f.floorGzipBytes)}; budget ${String(f.budgetKiB)} KiB gzip${over(Number(f.homeGzipBytes))}`,
    ])
    rows.push([
      'bundle size',
      'home, then: the router and the route tree',
      `${kib(f.homeRouterGzipBytes)} gzip`,
      '',
      '',
      'loaded once home is shown; it renders the first page opened from there',
    ])
    const routes = (f.routes ?? []) as { route: string; gzipBytes: number }[]
    const gzips = routes.map((route) => route.gzipBytes)
    if (routes.length)
      rows.push([
        'bundle size',
        `other routes' first load (${String(routes.length)} routes)`,
        `${kib(Math.min(...gzips))} to ${kib(Math.max(...gzips))} gzip`,
        '',
        '',
        `with the router (but the pages shown without it) and the whole catalogue; each route in \`npm run size\`${over(Math.max(...gzips))}`,
      ])
    if (!size.ok) failures++
  }
}

if (!SKIP.has('orders')) {
  const orders = await tsx('scripts/bench-orders.ts', 'orders')
  const results = orders.figures?.results
  if (!Array.isArray(results) || results.length === 0) failed('orders', 'sqlite and postgres')
  else {
    for (const r of results as Record<string, unknown>[]) {
      const problems = Array.isArray(r.problems) ? r.problems.length : 0
      rows.push([
        'orders',
        `${String(r.name)}: ${String(orders.figures?.orders)} orders, ${String(orders.figures?.concurrency)} clients`,
        `${Number(r.ordersPerSecond).toFixed(0)} orders/s`,
        ms(r.p50),
        ms(r.p99),
        [
          problems === 0 ? 'ledger OK' : 'LEDGER BROKEN',
          Number.isFinite(Number(r.machineCpuMs))
            ? `whole machine ${Number(r.machineCpuMs).toFixed(2)} ms CPU/order`
            : undefined,
        ]
          .filter(Boolean)
          .join('; '),
      ])
    }
    if (!orders.ok) failures++
  }
}

if (!SKIP.has('catalogue')) {
  const databases: [string, Record<string, string | undefined>][] = [
    ['sqlite', { BENCH_DATABASE_URL: undefined }],
  ]
  if (await postgresReachable(PG_URL)) databases.push(['postgres', { BENCH_DATABASE_URL: PG_URL }])
  else console.error('PostgreSQL is not reachable: the catalogue runs on SQLite only.')
  for (const [name, env] of databases) {
    const catalogue = await tsx('scripts/bench-catalogue.ts', 'catalogue', env)
    const figures = catalogue.figures?.figures
    if (!Array.isArray(figures) || figures.length === 0) {
      failed('catalogue', name)
      continue
    }
    for (const f of figures as Record<string, unknown>[]) {
      rows.push([
        `catalogue (${name})`,
        String(f.path),
        `${Number(f.requestsPerSecond).toFixed(0)} req/s`,
        ms(f.p50),
        ms(f.p99),
        Number(f.failures) > 0 ? `${String(f.failures)} failed requests` : '',
      ])
    }
    if (!catalogue.ok) failures++
  }
}

if (!SKIP.has('lighthouse')) {
  const lighthouse = await tsx('scripts/bench-lighthouse.ts', 'lighthouse')
  const figures = lighthouse.figures?.figures
  if (!lighthouse.ok || !Array.isArray(figures) || figures.length === 0) {
    failed('lighthouse', 'home, product, package, orders, wallet')
  } else {
    for (const f of figures as Record<string, unknown>[]) {
      rows.push([
        `lighthouse (${String(f.pass)})`,
        String(f.page),
        `score ${String(f.score)}`,
        '',
        '',
        `LCP ${(Number(f.lcpMs) / 1000).toFixed(2)} s, TBT ${Number(f.tbtMs).toFixed(0)} ms ` +
          `(longest task ${Number(f.longestTaskMs).toFixed(0)} ms), ` +
          `CLS ${Number(f.cls).toFixed(3)}, ${String(f.kib)} KiB, CPU ${String(f.cpuSlowdown)}x, ` +
          `benchmarkIndex ${Number(f.benchmarkIndex).toFixed(0)}`,
      ])
    }
  }
}

if (!SKIP.has('offline')) {
  const offline = await tsx('scripts/bench-offline.ts', 'offline')
  const f = offline.figures
  if (!offline.ok || !f) failed('offline start', 'home')
  else
    rows.push([
      'offline start (warm)',
      `home, CPU ${String(f.cpuSlowdown)}x, network off`,
      `${String(f.catalogueMs)} ms to the catalogue`,
      '',
      '',
      `LCP ${String(f.lcpMs)} ms (median of ${String(f.runs)})`,
    ])
}

const header: Row = ['benchmark', 'case', 'result', 'p50', 'p99', 'notes']
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)))
const line = (cells: string[]) =>
  `| ${cells.map((c, i) => (i >= 2 && i <= 4 ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join(' | ')} |`
console.log(line(header))
console.log(
  `| ${widths.map((w, i) => (i >= 2 && i <= 4 ? `${'-'.repeat(w - 1)}:` : '-'.repeat(w))).join(' | ')} |`,
)
for (const row of rows) console.log(line(row))
if (failures > 0) process.exitCode = 1
