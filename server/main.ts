import cluster from 'node:cluster'
import { rmSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import { pidFileOf } from './cli/backup'
import { getRequestListener } from '@hono/node-server'
import { createChainWatchers } from './adapters/chains'
import { superviseWorkers } from './cluster'
import { createApp, pushSenderFor } from './app'
import { ConfigError, loadConfig, loadDotEnv, type Config } from './config'
import { createDb } from './db'
import { migrateToLatest } from './db/migrations'
import { seedDemo } from './demo/seed'
import { sharedReplyLane, withLane } from './http/fast-lane'
import { ReplyCache } from './http/reply-cache'
import { createLogger, errorFields } from './log'
import { observePool } from './metrics'
import { contentVersionReader } from './services/content-version'
import { PasswordHasher, scryptWithCost } from './services/passwords'
import { startPushing } from './services/push'
import { startUpstream } from './services/upstream'
import { startWatching } from './services/usdt-watcher'

/** How long in-flight requests get to finish after SIGTERM before their sockets are cut. */
const SHUTDOWN_GRACE_MS = 10_000

function readConfig(): Config {
  loadDotEnv()
  try {
    return loadConfig(process.env)
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(`${err.message}\nSee .env.example for every setting.`)
      process.exit(1)
    }
    throw err
  }
}

const config = readConfig()
const logger = createLogger(config.logLevel)

if (cluster.isPrimary && config.instances > 1) {
  superviseWorkers(config.instances, logger)
  // This process only watches: the rest of this file runs in each server process.
  await new Promise(() => {})
}

process.on('unhandledRejection', (reason) => {
  // Usually a missing await somewhere; the request it belonged to already has its reply.
  logger.error('unhandled rejection', errorFields(reason))
})

const passwords = new PasswordHasher(scryptWithCost(config.passwordHashCost))
// Before listening: the first unknown-user sign-in must cost one hash, like every other.
const dummyHash = passwords.prepare()
const store = createDb(config, logger)
if (store.poolStats) observePool(store.poolStats)
try {
  const applied = await migrateToLatest(store.db, store.dialect)
  if (applied.length > 0) logger.info('migrations applied', { migrations: applied })
  // The demo accounts have public passwords: only when asked, and never in production
  // (loadConfig refuses DEMO=1 there).
  if (config.demo && (await seedDemo(store.db, new Date(), passwords, config.tokenSecret)))
    logger.info('demo content loaded into the new database')
} catch (err) {
  logger.error('database start-up failed', { dialect: store.dialect, ...errorFields(err) })
  await store.destroy().catch(() => {})
  process.exit(1)
}

// Beside a SQLite file, which process serves it: `operator -- restore` refuses to run under it.
const pidFile = store.dialect === 'sqlite' ? pidFileOf(config.sqlitePath) : null
if (pidFile) writeFileSync(pidFile, `${process.pid}\n`)

if (config.nodeEnv === 'production' && (!config.whatsapp || !config.smtp)) {
  // Nobody receives these codes: sign-up, sign-in or recovery cannot complete.
  logger.warn('codes go to the local outbox table only; configure WhatsApp and SMTP', {
    whatsapp: Boolean(config.whatsapp),
    smtp: Boolean(config.smtp),
  })
}

await dummyHash
const push = pushSenderFor(config, store.db, logger)
const replies = new ReplyCache(contentVersionReader(store.db))
// Set by SIGTERM: /readyz then answers 503, so a load balancer stops sending new requests.
let stopping = false
const app = createApp({
  db: store.db,
  config,
  logger,
  passwords,
  push,
  replies,
  isStopping: () => stopping,
})
const lane = sharedReplyLane(replies, config, logger)
// Pushes are sent after the changes that made them commit.
const stopPushing = startPushing(store.db, push, { intervalMs: config.push.pollMs, logger })

// Paid orders of packages mapped to an upstream panel: placed, then polled (docs/api.md).
const upstream = startUpstream(store.db, {
  tokenSecret: config.tokenSecret,
  timeoutMs: config.upstream.timeoutMs,
  intervalMs: config.upstream.pollMs,
  lbpRate: config.lbpRate,
  logger,
})

// USDT transfers to the store's addresses, where a network is watched (USDT_*_ADDRESS).
const watchers = createChainWatchers(config.chains, { logger })
const stopWatching = startWatching(store.db, watchers, {
  rate: config.lbpRate,
  intervalMs: config.usdt.pollMs,
  now: () => new Date(),
  logger,
})
if (watchers.length > 0)
  logger.info('watching usdt transfers', { networks: watchers.map((w) => w.network) })
// Cached public reads are answered before the app builds its request objects (http/fast-lane.ts).
const server: Server = createServer(
  withLane(lane, getRequestListener(app.fetch, { hostname: config.host })),
)
// An idle kept-alive connection stays open for a minute (Node's default is 5 s): a client or a
// proxy that sends on it just as the server closes it gets a reset instead of a reply, and
// proxies and clients keep idle connections for up to about a minute.
server.keepAliveTimeout = 65_000
server.listen(config.port, config.host, () => {
  const address = server.address()
  const info =
    typeof address === 'object' && address ? address : { address: config.host, port: config.port }
  const host = ['0.0.0.0', '::'].includes(info.address) ? 'localhost' : info.address
  logger.info('listening', {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${info.port}/`,
    port: info.port,
    dialect: store.dialect,
  })
})

server.on('error', (err) => {
  logger.error('server error', errorFields(err))
  process.exit(1)
})

async function shutdown(signal: string, exitCode = 0) {
  if (stopping) {
    logger.warn('second signal: exiting without waiting', { signal })
    process.exit(1)
  }
  stopping = true
  // The watchers and the push and upstream workers finish the round under way, then stop.
  const workersStopped = Promise.all([stopWatching(), stopPushing(), upstream.stop()])
  logger.info('shutting down', { signal })
  const force = setTimeout(() => {
    logger.warn('in-flight requests still open; closing their connections')
    server.closeAllConnections()
  }, SHUTDOWN_GRACE_MS)
  // close() stops accepting and calls back once every in-flight request has been answered.
  const closed = new Promise<void>((resolve) => server.close(() => resolve()))
  // A kept-alive connection whose request is answered goes idle and would hold close() until
  // the grace ends: idle ones are closed as they come.
  server.closeIdleConnections()
  const idle = setInterval(() => server.closeIdleConnections(), 50)
  await closed
  clearInterval(idle)
  clearTimeout(force)
  await workersStopped
  try {
    await store.destroy()
  } catch (err) {
    logger.error('closing the database failed', errorFields(err))
  }
  if (pidFile) rmSync(pidFile, { force: true })
  logger.info('stopped')
  process.exit(exitCode)
}

process.on('SIGTERM', () => void shutdown('SIGTERM'))
// Under INSTANCES, a terminal's Ctrl-C reaches every process; the supervisor passes it on.
process.on('SIGINT', () => void (cluster.isWorker || shutdown('SIGINT')))
process.on('uncaughtException', (err) => {
  // State may be broken now: stop cleanly and let the supervisor start a fresh process.
  logger.error('uncaught exception', errorFields(err))
  void shutdown('uncaughtException', 1)
})
