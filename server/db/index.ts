import { Kysely, PostgresDialect } from 'kysely'
import pg from 'pg'
import type { Config } from '../config'
import type { Logger } from '../log'
import type { PoolStats } from '../metrics'
import { errorFields } from '../log'
import { backgroundSettled } from './background'
import { LedgerBigIntPlugin } from './bigint'
import { useNamedStatements } from './named-statements'
import type { Database } from './schema'
import { DatabaseBusyError, NodeSqliteDialect } from './sqlite'

export type Dialect = 'sqlite' | 'postgres'

export interface Db {
  db: Kysely<Database>
  dialect: Dialect
  /** Waits for the background writes (db/background.ts), then closes the connections. */
  destroy(): Promise<void>
  /** PostgreSQL: the pool's connections and the queries waiting for one, now. */
  poolStats?: () => PoolStats
}

const PG_INT8 = 20

/** Connections each PostgreSQL pool keeps at most. */
export const POOL_SIZE = 10

/**
 * pg returns bigint columns (ids, counts, money in micro-units) as strings. Read them as
 * bigint, exactly; LedgerBigIntPlugin then keeps the ledger amounts bigint and turns the
 * rest into numbers, the same as on SQLite.
 */
const parseInt8 = (text: string): bigint => BigInt(text)

export function isPostgresUrl(url: string | undefined): url is string {
  return url !== undefined && /^postgres(ql)?:\/\//.test(url)
}

/**
 * Opens the store's database. With SQLite, open one per file per process: its driver keeps the
 * process's writes in order itself (db/sqlite.ts), and another process's writes wait for the
 * lock like any other.
 */
export function createDb(
  config: Pick<Config, 'databaseUrl' | 'sqlitePath'> &
    Partial<Pick<Config, 'sqliteLockWaitMs' | 'sqliteSynchronous'>>,
  logger?: Logger,
): Db {
  if (isPostgresUrl(config.databaseUrl)) {
    const pool = new pg.Pool({
      connectionString: config.databaseUrl,
      max: POOL_SIZE,
      // Per-pool parsers, so tests that open several pools do not rely on global state.
      types: {
        getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
          oid === PG_INT8 && format !== 'binary'
            ? parseInt8
            : pg.types.getTypeParser(oid, format ?? 'text')) as typeof pg.types.getTypeParser,
      },
    })
    // An idle client losing its connection (server restart, failover) emits 'error' on the
    // pool; unhandled, that would end the process. The pool replaces the client by itself.
    pool.on('error', (err) => logger?.error('postgres idle client error', errorFields(err)))
    // A client in use can lose its socket too (an administrator's pg_terminate_backend, a
    // failover): its query fails with the error, and a second 'error' event with no listener
    // would still end the process. The pool drops the broken client when it is released.
    pool.on('connect', (client) =>
      client.on('error', (err) => logger?.error('postgres client error', errorFields(err))),
    )
    // The hot path's statements are parsed and planned once per connection.
    useNamedStatements(pool)
    const db = new Kysely<Database>({
      dialect: new PostgresDialect({ pool }),
      plugins: [new LedgerBigIntPlugin()],
    })
    return {
      db,
      dialect: 'postgres',
      destroy: () => closeDb(db),
      poolStats: () => ({
        total: pool.totalCount,
        idle: pool.idleCount,
        waiting: pool.waitingCount,
      }),
    }
  }
  const db = new Kysely<Database>({
    dialect: new NodeSqliteDialect({
      path: config.sqlitePath,
      lockWaitMs: config.sqliteLockWaitMs,
      synchronous: config.sqliteSynchronous,
    }),
    plugins: [new LedgerBigIntPlugin()],
  })
  return { db, dialect: 'sqlite', destroy: () => closeDb(db) }
}

/** Closes the database once the writes no request waits for are done (db/background.ts). */
async function closeDb(db: Kysely<Database>): Promise<void> {
  await backgroundSettled(db)
  await db.destroy()
}

/**
 * PostgreSQL's answers that the connection, not the statement, failed: class 08 (connection
 * exception), 53300 (too many connections), 57P01 to 57P03 (terminated by an administrator,
 * a crash or a restart; not accepting connections yet).
 */
const CONNECTION_STATE = /^(08...|53300|57P0[123])$/
/** What pg and Node say when the connection is cut or cannot be made. */
const CONNECTION_CODE = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
])
const CONNECTION_MESSAGE =
  /^Connection terminated|not queryable|timeout exceeded when trying to connect|is not currently accepting connections/

/**
 * The database could not be used for a moment, and nothing of the request was done unless
 * its commit had gone through (which an Idempotency-Key's retry answers): SQLite's lock held
 * by another process too long, or PostgreSQL's connection cut, refused or not made (a restart,
 * a failover, pg_terminate_backend). The app answers 503 with Retry-After.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  for (let e = err, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    if (e instanceof DatabaseBusyError) return true
    const code = (e as { code?: unknown }).code
    if (typeof code === 'string' && (CONNECTION_STATE.test(code) || CONNECTION_CODE.has(code)))
      return true
    if (CONNECTION_MESSAGE.test(e.message)) return true
  }
  return false
}
