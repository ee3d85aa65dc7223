import { Checkpointer } from './checkpointer'
import { joinReads, laterDurability } from './durability'
import { mkdirSync } from 'node:fs'
import { open, type FileHandle } from 'node:fs/promises'
import { dirname } from 'node:path'
import { DatabaseSync, type SQLInputValue, type StatementSync } from 'node:sqlite'
import { setTimeout as sleep } from 'node:timers/promises'
import {
  CompiledQuery,
  SelectQueryNode,
  SqliteAdapter,
  SqliteDialect,
  type DatabaseConnection,
  type DialectAdapter,
  type Driver,
  type QueryResult,
} from 'kysely'
import { metrics } from '../metrics'

const STATEMENT_CACHE_SIZE = 200

/** How long a write may wait for SQLite's lock, in all, unless configured otherwise. */
export const DEFAULT_LOCK_WAIT_MS = 5000

/**
 * A write could not get SQLite's write lock in time: another process (the operator CLI, a
 * backup, a maintenance shell) holds it. Nothing was changed; the app answers 503 with
 * Retry-After.
 */
export class DatabaseBusyError extends Error {
  override name = 'DatabaseBusyError'
}

/** SQLITE_BUSY or SQLITE_LOCKED, extended codes included. */
function isBusy(err: unknown): boolean {
  const code = (err as { errcode?: unknown } | null)?.errcode
  return typeof code === 'number' && ((code & 0xff) === 5 || (code & 0xff) === 6)
}

/** A prepared statement, and whether it returns rows (asking costs more than a lookup). */
interface Prepared {
  stmt: StatementSync
  returnsRows: boolean
}

/** One node:sqlite connection with a cache of its prepared statements. */
class Connection {
  readonly #db: DatabaseSync
  // Kysely prepares every query it runs; the same few statements repeat, so keep them.
  readonly #cache = new Map<string, Prepared>()

  constructor(path: string) {
    // No busy timeout: SQLite's own wait is synchronous and would stall the whole event loop
    // (every request, static files too) while another process holds the lock. A busy
    // statement fails at once and is retried asynchronously instead (see retryWhileBusy).
    // Integers are read as bigint (exact beyond 2^53); LedgerBigIntPlugin (db/bigint.ts) turns
    // everything but the ledger amounts back into numbers.
    this.#db = new DatabaseSync(path, { timeout: 0, readBigInts: true })
  }

  exec(sql: string) {
    this.#db.exec(sql)
  }

  /** Inside a transaction (a BEGIN not yet committed or rolled back). */
  get inTransaction() {
    return this.#db.isTransaction
  }

  run(compiled: CompiledQuery): QueryResult<unknown> {
    const params = compiled.parameters as SQLInputValue[]
    const { stmt, returnsRows } = this.#prepare(compiled.sql)
    // The schema stores only what SQLite binds: numbers (flags as 0/1), text, null, bytes.
    if (returnsRows) return { rows: stmt.all(...params) }
    const { changes, lastInsertRowid } = stmt.run(...params)
    return {
      insertId: lastInsertRowid != null ? BigInt(lastInsertRowid) : undefined,
      numAffectedRows: changes != null ? BigInt(changes) : undefined,
      rows: [],
    }
  }

  *iterate(compiled: CompiledQuery): Generator<unknown> {
    yield* this.#prepare(compiled.sql).stmt.iterate(...(compiled.parameters as SQLInputValue[]))
  }

  #prepare(sql: string): Prepared {
    let stmt = this.#cache.get(sql)
    if (stmt) {
      // Re-insert so the map's order is least-recently-used first.
      this.#cache.delete(sql)
    } else {
      const prepared = this.#db.prepare(sql)
      stmt = { stmt: prepared, returnsRows: prepared.columns().length > 0 }
      if (this.#cache.size >= STATEMENT_CACHE_SIZE) {
        const oldest = this.#cache.keys().next().value
        if (oldest !== undefined) this.#cache.delete(oldest)
      }
    }
    this.#cache.set(sql, stmt)
    return stmt
  }

  close() {
    this.#cache.clear()
    this.#db.close()
  }
}

/**
 * Runs `fn` (a synchronous SQLite call) until it is not busy, sleeping between tries so the
 * event loop keeps serving, or throws DatabaseBusyError once `deadline` has passed.
 */
async function retryWhileBusy<T>(fn: () => T, deadline: number): Promise<T> {
  let waited: (() => number) | undefined
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        return fn()
      } catch (err) {
        if (!isBusy(err)) throw err
        waited ??= metrics.sqliteLockWaits.startTimer()
        if (Date.now() >= deadline) {
          throw new DatabaseBusyError('the database is locked by another process', { cause: err })
        }
        await sleep(Math.min(2 ** attempt, 50))
      }
    }
  } finally {
    waited?.()
  }
}

/** A first-come first-served lock for this process's writes, with a deadline per waiter. */
class WriteLock {
  #held = false
  readonly #waiting: (() => void)[] = []

  /** Nobody holds the lock or waits for it: no transaction of this process is open. */
  get free() {
    return !this.#held
  }

  async acquire(deadline: number): Promise<() => void> {
    if (this.#held) {
      await new Promise<void>((resolve, reject) => {
        const wake = () => {
          clearTimeout(timer)
          resolve()
        }
        const timer = setTimeout(
          () => {
            const i = this.#waiting.indexOf(wake)
            if (i >= 0) this.#waiting.splice(i, 1)
            reject(new DatabaseBusyError('the database stayed busy with earlier writes'))
          },
          Math.max(0, deadline - Date.now()),
        )
        this.#waiting.push(wake)
      })
    }
    this.#held = true
    let released = false
    return () => {
      if (released) return
      released = true
      const next = this.#waiting.shift()
      // Handed straight to the next waiter: `held` stays true, nobody can cut in.
      if (next) next()
      else this.#held = false
    }
  }
}

/**
 * When a commit is on disk (SQLITE_SYNCHRONOUS). FULL, the default: before it is answered, as
 * SQLite's own FULL would have it, but with the WAL flushed off the event loop and shared by
 * every commit made while a flush runs (see WalSync). NORMAL: SQLite's NORMAL, the WAL
 * flushed at checkpoints only; a power cut or an OS crash may then undo the last commits.
 */
export type SqliteSynchronous = 'FULL' | 'NORMAL'

export interface SqliteOptions {
  path: string
  /** How long a write may wait for the lock, in all (SQLITE_LOCK_WAIT_MS). */
  lockWaitMs?: number
  /** FULL unless the operator opts into NORMAL (SQLITE_SYNCHRONOUS). */
  synchronous?: SqliteSynchronous
}

/**
 * Makes commits durable before they are answered, without stopping the event loop: SQLite
 * runs with synchronous = NORMAL (a commit is written to the WAL, not flushed) and every commit
 * then waits for an fdatasync of the WAL file that started after it, on libuv's thread pool.
 * One flush covers every commit written before it starts, so the commits of one moment share
 * it (group commit at the disk, on top of db/group-commit.ts's at the transaction), and the
 * next transactions run while it is in flight. A request's reply waits for the flush of the
 * commits its reads could see (durableReads), reads outside a request wait before they read,
 * so nothing is shown, or answered again under an Idempotency-Key, that a power cut could
 * still undo. SQLite's own checkpoints flush the WAL
 * before copying it into the database file and flush that file before the WAL is reused.
 */
class WalSync {
  #written = 0
  #durable = 0
  #running: Promise<void> | undefined
  #queued: Promise<void> | undefined

  private constructor(readonly file: FileHandle) {}

  /** The WAL's file, opened (created if need be) only to flush it. */
  static async open(path: string): Promise<WalSync> {
    const sync = new WalSync(await open(`${path}-wal`, 'a'))
    // The WAL's directory entry too, once: a new file is durable only with it.
    const dir = await open(dirname(path), 'r')
    try {
      await dir.sync()
    } finally {
      await dir.close()
    }
    return sync
  }

  /** A commit was written; call `durable()` before answering it. */
  committed() {
    this.#written++
  }

  get pending() {
    return this.#durable < this.#written
  }

  /** Resolves once every commit written so far is on disk. */
  async durable(): Promise<void> {
    const target = this.#written
    while (this.#durable < target) await this.#flush()
  }

  #flush(): Promise<void> {
    if (this.#queued) return this.#queued
    if (!this.#running) return this.#start()
    // The running flush may have started before the commit waiting: the next one covers it.
    this.#queued = this.#running
      .catch(() => {})
      .then(() => {
        this.#queued = undefined
        return this.#start()
      })
    return this.#queued
  }

  #start(): Promise<void> {
    const target = this.#written
    const run = this.file.datasync().then(
      () => {
        this.#durable = Math.max(this.#durable, target)
      },
      (err: unknown) => {
        throw new Error('flushing the SQLite WAL to disk failed', { cause: err })
      },
    )
    this.#running = run
    void run
      .finally(() => {
        if (this.#running === run) this.#running = undefined
      })
      .catch(() => {})
    return run
  }

  close() {
    return this.file.close()
  }
}

/**
 * Kysely over Node's built-in `node:sqlite` (no native build), with two connections: reads
 * outside transactions go to their own connection while a transaction of this process is open
 * (WAL lets it read while a writer holds the lock), else to the write connection, whose page
 * cache is warmer (Session.executeQuery); transactions and other writes take the write
 * connection one at a time. Writes
 * wait for SQLite's lock asynchronously, so a lock held by another process never freezes the
 * server; past `lockWaitMs` they fail with DatabaseBusyError.
 */
class NodeSqliteDriver implements Driver {
  readonly #options: SqliteOptions
  #write: Connection | undefined
  #read: Connection | undefined
  #sync: WalSync | undefined
  #checkpointer: Checkpointer | undefined
  readonly #lock = new WriteLock()

  constructor(options: SqliteOptions) {
    this.#options = options
  }

  async init() {
    const { path } = this.#options
    const inMemory = path === ':memory:' || path.includes('mode=memory')
    if (!inMemory && !path.startsWith('file:')) mkdirSync(dirname(path), { recursive: true })
    const write = new Connection(path)
    const deadline = Date.now() + this.lockWaitMs
    // WAL lets readers proceed while one writer commits. SQLite itself flushes at checkpoints
    // only (NORMAL); with FULL, WalSync flushes each commit before it is answered.
    await retryWhileBusy(() => write.exec('PRAGMA journal_mode = WAL'), deadline)
    write.exec('PRAGMA synchronous = NORMAL')
    write.exec('PRAGMA foreign_keys = ON')
    if (!inMemory && (this.#options.synchronous ?? 'FULL') === 'FULL')
      this.#sync = await WalSync.open(path.replace(/^file:/, '').replace(/\?.*$/, ''))
    if (!inMemory) {
      // Checkpoints on a thread of their own (see Checkpointer), unless it fails.
      write.exec('PRAGMA wal_autocheckpoint = 0')
      this.#checkpointer = new Checkpointer(path, () => {
        try {
          write.exec('PRAGMA wal_autocheckpoint = 1000')
        } catch {
          // Closed already: nothing is written any more.
        }
      })
    }
    this.#write = write
    // A second connection to an in-memory database would be another, empty, database.
    this.#read = inMemory ? write : new Connection(path)
    if (this.#read !== write) this.#read.exec('PRAGMA foreign_keys = ON')
  }

  get lockWaitMs() {
    return this.#options.lockWaitMs ?? DEFAULT_LOCK_WAIT_MS
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    return new Session(this.#write!, this.#read!, this.#lock, this.lockWaitMs, this.#sync)
  }

  async beginTransaction(connection: DatabaseConnection) {
    await (connection as Session).begin()
  }

  async commitTransaction(connection: DatabaseConnection) {
    await (connection as Session).end('commit')
  }

  async rollbackTransaction(connection: DatabaseConnection) {
    await (connection as Session).end('rollback')
  }

  async savepoint(connection: DatabaseConnection, name: string) {
    await connection.executeQuery(CompiledQuery.raw(`savepoint "${name}"`))
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string) {
    await connection.executeQuery(CompiledQuery.raw(`rollback to "${name}"`))
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string) {
    await connection.executeQuery(CompiledQuery.raw(`release "${name}"`))
  }

  async releaseConnection(connection: DatabaseConnection) {
    // A transaction left open (its code threw between begin and end) must not keep the lock.
    await (connection as Session).end('rollback')
  }

  async destroy() {
    if (this.#read && this.#read !== this.#write) this.#read.close()
    await this.#checkpointer?.stop()
    // The last connection to close copies the rest of the WAL into the file and removes it.
    this.#write?.close()
    await this.#sync?.close()
  }
}

/** What Kysely calls a connection: one query, or one transaction, of one caller. */
class Session implements DatabaseConnection {
  #release: (() => void) | undefined

  constructor(
    readonly write: Connection,
    readonly read: Connection,
    readonly lock: WriteLock,
    readonly waitMs: number,
    readonly sync: WalSync | undefined,
  ) {}

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    // Inside this session's transaction: the write connection, whose lock we hold.
    if (this.#release) return this.write.run(compiled) as QueryResult<R>
    const deadline = Date.now() + this.waitMs
    if (SelectQueryNode.is(compiled.query)) {
      // Only what is on disk is shown: the commits before this read are flushed before it is
      // answered, by the request (durableReads) or here.
      if (this.sync?.pending) await joinReads(this.sync.durable())
      // While no transaction of this process is open, the write connection reads just what the
      // read connection would, and faster: SQLite drops a connection's page cache when another
      // connection has written since its last read, so the read connection reads its pages
      // again after every commit, while the write connection's cache survives its own commits
      // (docs/performance.md, Orders). Chosen at the moment of the (synchronous) read.
      return retryWhileBusy(
        () => (this.lock.free && !this.write.inTransaction ? this.write : this.read).run(compiled),
        deadline,
      ) as Promise<QueryResult<R>>
    }
    const release = await this.lock.acquire(deadline)
    let result: QueryResult<R>
    try {
      result = (await retryWhileBusy(() => this.write.run(compiled), deadline)) as QueryResult<R>
      this.sync?.committed()
    } finally {
      release()
    }
    await this.sync?.durable()
    return result
  }

  async *streamQuery<R>(compiled: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    if (!SelectQueryNode.is(compiled.query)) {
      throw new Error('Sqlite driver only supports streaming of select queries')
    }
    const connection = this.#release ? this.write : this.read
    for (const row of connection.iterate(compiled)) yield { rows: [row as R] }
  }

  /**
   * BEGIN IMMEDIATE: the transaction takes the write lock up front, so a read that turns into
   * a write (the wallet's check-then-debit) never fails half-way with SQLITE_BUSY.
   */
  async begin() {
    const deadline = Date.now() + this.waitMs
    const release = await this.lock.acquire(deadline)
    try {
      await retryWhileBusy(() => this.write.exec('begin immediate'), deadline)
    } catch (err) {
      release()
      throw err
    }
    this.#release = release
  }

  async end(how: 'commit' | 'rollback') {
    const release = this.#release
    if (!release) return
    try {
      if (how === 'commit') {
        await retryWhileBusy(() => this.write.exec('commit'), Date.now() + this.waitMs)
        this.sync?.committed()
      } else {
        rollback(this.write)
      }
    } catch (err) {
      // The commit failed: undo, so the connection is not left inside the transaction.
      if (how === 'commit') rollback(this.write)
      throw err
    } finally {
      this.#release = undefined
      release()
    }
    if (how !== 'commit' || !this.sync) return
    // Answered only once on disk; the next transactions run meanwhile. A caller that waits
    // itself (the group commit, which starts its next group meanwhile) takes the promise.
    const waiter = laterDurability.getStore()
    if (waiter) waiter.durable = this.sync.durable()
    else await this.sync.durable()
  }
}

/** Ends the open transaction; SQLite may have rolled it back already (after some errors). */
function rollback(connection: Connection) {
  try {
    connection.exec('rollback')
  } catch (err) {
    if (!/no transaction is active/i.test((err as Error).message)) throw err
  }
}

/** The app runs the two connections itself (see NodeSqliteDriver), hence "multiple". */
class NodeSqliteAdapter extends SqliteAdapter {
  override get supportsMultipleConnections() {
    return true
  }
}

export class NodeSqliteDialect extends SqliteDialect {
  readonly #options: SqliteOptions

  constructor(options: SqliteOptions) {
    super({ database: () => Promise.reject(new Error('unused')) })
    this.#options = options
  }

  override createDriver(): Driver {
    return new NodeSqliteDriver(this.#options)
  }

  override createAdapter(): DialectAdapter {
    return new NodeSqliteAdapter()
  }
}
