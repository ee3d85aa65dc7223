import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import { DatabaseSync, type SQLInputValue, type StatementSync } from 'node:sqlite'
import {
  CompiledQuery,
  SqliteDialect,
  SqliteDriver,
  type DatabaseConnection,
  type Driver,
  type SqliteDatabase,
  type SqliteDialectConfig,
  type SqliteStatement,
} from 'kysely'

const STATEMENT_CACHE_SIZE = 200

/**
 * Kysely's SqliteDialect speaks the better-sqlite3 interface; this adapts Node's built-in
 * `node:sqlite`, which needs no native build (see DESIGN.md, toolchain facts).
 */
export function openSqlite(path: string): SqliteDatabase {
  if (path !== ':memory:' && !path.startsWith('file:'))
    mkdirSync(dirname(path), { recursive: true })
  // `timeout` is SQLite's busy_timeout: a second process (the operator CLI, a migration) waits
  // for the write lock instead of failing at once with SQLITE_BUSY.
  // Integers are read as bigint (exact beyond 2^53); LedgerBigIntPlugin (db/bigint.ts) turns
  // everything but the ledger amounts back into numbers.
  const db = new DatabaseSync(path, { timeout: 5000, readBigInts: true })
  // WAL lets readers proceed while one writer commits; NORMAL sync is durable enough with WAL.
  db.exec('PRAGMA journal_mode = WAL')
  db.exec('PRAGMA synchronous = NORMAL')
  db.exec('PRAGMA foreign_keys = ON')

  // Kysely prepares every query it runs; the same few statements repeat, so keep them.
  const cache = new Map<string, SqliteStatement>()

  const wrap = (stmt: StatementSync): SqliteStatement => ({
    reader: stmt.columns().length > 0,
    // The schema stores only what SQLite binds: numbers (flags as 0/1), text, null, bytes.
    all: (params) => stmt.all(...(params as SQLInputValue[])),
    run: (params) => stmt.run(...(params as SQLInputValue[])),
    iterate: (params) => stmt.iterate(...(params as SQLInputValue[])) as IterableIterator<unknown>,
  })

  return {
    prepare(sql) {
      let stmt = cache.get(sql)
      if (stmt) {
        // Re-insert so the map's order is least-recently-used first.
        cache.delete(sql)
      } else {
        stmt = wrap(db.prepare(sql))
        if (cache.size >= STATEMENT_CACHE_SIZE) {
          const oldest = cache.keys().next().value
          if (oldest !== undefined) cache.delete(oldest)
        }
      }
      cache.set(sql, stmt)
      return stmt
    },
    close() {
      cache.clear()
      db.close()
    },
  }
}

/**
 * Transactions start with BEGIN IMMEDIATE: they take the write lock up front, so a second
 * process (the operator CLI) waits its busy_timeout instead of failing half-way with
 * SQLITE_BUSY when a read turns into a write (the wallet's check-then-debit).
 */
class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'))
  }
}

export class NodeSqliteDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig

  constructor(config: SqliteDialectConfig) {
    super(config)
    this.#config = config
  }

  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.#config)
  }
}
