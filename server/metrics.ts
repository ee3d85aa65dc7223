import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client'
import { sql, type Kysely } from 'kysely'
import type { Database } from './db/schema'

/**
 * The process's Prometheus metrics (prom-client), read at GET /metrics (METRICS_TOKEN). Events
 * are counted where they happen, per process; what the database holds (top-ups by method and
 * state, pushes waiting) is counted from it at each scrape, so it agrees across instances and
 * the operator CLI.
 */
export const registry = new Registry()
collectDefaultMetrics({ register: registry })

export const metrics = {
  http: new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP requests by method, route pattern and status, and how long they took (its _count is the requests).',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  }),
  rateLimited: new Counter({
    name: 'http_rate_limited_total',
    help: 'Requests answered 429 (a rate limit, a code or sign-in hold), by route pattern.',
    labelNames: ['route'] as const,
    registers: [registry],
  }),
  ordersPlaced: new Counter({
    name: 'orders_placed_total',
    help: 'Orders placed and paid for (a replayed Idempotency-Key is not counted again).',
    registers: [registry],
  }),
  ordersFailed: new Counter({
    name: 'orders_failed_total',
    help: 'Orders that were not placed: balance (not enough money, or the currency changed) or error.',
    labelNames: ['reason'] as const,
    registers: [registry],
  }),
  handOverFailures: new Counter({
    name: 'order_handover_failures_total',
    help: 'Paid orders the provider could not be told about (retried by the status refresh).',
    registers: [registry],
  }),
  codeSends: new Counter({
    name: 'code_sends_total',
    help: 'Verification codes issued, by purpose and channel.',
    labelNames: ['purpose', 'channel'] as const,
    registers: [registry],
  }),
  pushJobs: new Counter({
    name: 'push_jobs_total',
    help: 'Push jobs finished by this process: sent, or failed (given up after the last retry).',
    labelNames: ['outcome'] as const,
    registers: [registry],
  }),
  topUps: new Gauge({
    name: 'top_ups',
    help: 'Top-ups in the database, by method and state.',
    labelNames: ['method', 'state'] as const,
    registers: [registry],
  }),
  pushPending: new Gauge({
    name: 'push_jobs_pending',
    help: 'Push jobs not sent yet.',
    registers: [registry],
  }),
  usdtHead: new Gauge({
    name: 'usdt_watcher_head_block',
    help: "The chain's newest block at the watcher's last poll, by network.",
    labelNames: ['network'] as const,
    registers: [registry],
  }),
  usdtLastRound: new Gauge({
    name: 'usdt_watcher_last_round_timestamp_seconds',
    help: 'When the watcher last read the chain up to its head without an error, by network; its lag is time() minus this.',
    labelNames: ['network'] as const,
    registers: [registry],
  }),
  sqliteLockWaits: new Histogram({
    name: 'sqlite_lock_wait_seconds',
    help: "Statements that found SQLite's lock held by another process, and how long they waited (its _count is the waits; past SQLITE_LOCK_WAIT_MS the request answers 503).",
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  }),
  dbPool: new Gauge({
    name: 'db_pool_clients',
    help: "The PostgreSQL pool's connections in use and idle, and the queries waiting for one (state).",
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      const stats = poolStats?.()
      if (!stats) return
      this.set({ state: 'busy' }, stats.total - stats.idle)
      this.set({ state: 'idle' }, stats.idle)
      this.set({ state: 'waiting' }, stats.waiting)
    },
  }),
}

export interface PoolStats {
  total: number
  idle: number
  waiting: number
}
let poolStats: (() => PoolStats) | undefined

/** The pool whose connections db_pool_clients reports (the server's, on PostgreSQL). */
export function observePool(stats: () => PoolStats): void {
  poolStats = stats
}

/** The Prometheus text of every metric, the database's counts read now. */
export async function metricsText(db: Kysely<Database>): Promise<string> {
  const [topUps, pending] = await Promise.all([
    db
      .selectFrom('charging_processes')
      .select(['name', 'status', sql<number>`count(*)`.as('n')])
      .groupBy(['name', 'status'])
      .execute(),
    db
      .selectFrom('push_jobs')
      .select(sql<number>`count(*)`.as('n'))
      .where('done_at', 'is', null)
      .executeTakeFirstOrThrow(),
  ])
  metrics.topUps.reset()
  for (const row of topUps)
    metrics.topUps.set({ method: row.name, state: row.status }, Number(row.n))
  metrics.pushPending.set(Number(pending.n))
  return registry.metrics()
}
