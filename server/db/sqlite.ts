import { mkdirSync } from 'node:fs'
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

interface Prepared {
  stmt: StatementSync
  /** A statement with result columns (a select, or a write with RETURNING). */
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

  /** False once SQLite has ended the transaction, including on its own after some errors. */
  get inTransaction(): boolean {
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
    let prepared = this.#cache.get(sql)
    if (prepared) {
      // Re-insert so the map's order is least-recently-used first.
      this.#cache.delete(sql)
    } else {
      const stmt = this.#db.prepare(sql)
      // Asked once: columns() builds a description of every column on each call.
      prepared = { stmt, returnsRows: stmt.columns().length > 0 }
      if (this.#cache.size >= STATEMENT_CACHE_SIZE) {
        const oldest = this.#cache.keys().next().value
        if (oldest !== undefined) this.#cache.delete(oldest)
      }
    }
    this.#cache.set(sql, prepared)
    return prepared
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
  for (let attempt = 0; ; attempt++) {
    try {
      return fn()
    } catch (err) {
      if (!isBusy(err)) throw err
      if (Date.now() >= deadline) {
        throw new DatabaseBusyError('the database is locked by another process', { cause: err })
      }
      await sleep(Math.min(2 ** attempt, 50))
    }
  }
}

/** A first-come first-served lock for this process's writes, with a deadline per waiter. */
class WriteLock {
  #held = false
  readonly #waiting: (() => void)[] = []

  /** How many callers are queued behind the holder. */
  get waiting(): number {
    return this.#waiting.length
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

/** The most writers one SQLite commit carries (see Writer). */
const GROUP_LIMIT = 64
/** Each writer's work inside the shared transaction, undone alone when it fails. */
const MEMBER = 'group_member'
/** The commit queues for the lock like a writer; it never gives up. */
const COMMIT_WAIT_MS = 24 * 3600_000

/**
 * The write connection with group commit. Writers still take the lock one at a time, and each
 * runs inside its own savepoint, so a failing one (an order the balance does not cover) undoes
 * only its own changes. But the transaction is not committed when a writer ends: the commit is
 * queued for the end of this turn of the event loop (setImmediate, behind the lock's queue),
 * so the writers whose requests arrived meanwhile continue in the same transaction, and one
 * commit carries them all (at most GROUP_LIMIT). Nobody is answered before that commit: every
 * writer's end waits for it, and if it fails, every writer whose work it carried gets the
 * error. So a caller that has its answer knows its writes, and everything before them, are
 * committed; N orders cost one commit instead of N, for one turn of the event loop of latency.
 *
 * Durability is SQLite's WAL with synchronous = NORMAL: a commit is in the WAL file before it
 * is answered, so a crash of the process (even SIGKILL) loses nothing answered; a power cut or
 * OS crash can lose the last commits since the WAL was last synced (at checkpoints), but never
 * leaves half a transaction, so balances, orders and ledger lines always still agree.
 */
class Writer {
  readonly lock = new WriteLock()
  /** Writers whose work the open transaction carries, waiting for its commit. */
  #members: { kept: boolean; resolve: () => void; reject: (err: unknown) => void }[] = []
  #commitQueued: Promise<void> | undefined

  constructor(
    readonly conn: Connection,
    readonly waitMs: number,
  ) {}

  /**
   * With the lock held: a transaction is open for the caller to work in, a new one (BEGIN
   * IMMEDIATE, waiting out another process's lock until `deadline`) or the group's.
   */
  async join(deadline: number) {
    if (!this.conn.inTransaction) {
      // SQLite may have rolled the group back on its own (a full disk, an I/O error).
      if (this.#members.length > 0) this.#settle(new Error('SQLite rolled the transaction back'))
      await retryWhileBusy(() => this.conn.exec('begin immediate'), deadline)
    }
  }

  /**
   * With the lock held: the caller's work is done, `kept` or undone. Releases the lock with the
   * transaction left open for the next writers, its commit queued (or commits now when the
   * group is full); resolves once it is committed, and rejects if that commit failed and the
   * caller's work was lost with it.
   */
  async leave(release: () => void, kept: boolean): Promise<void> {
    const committed = new Promise<void>((resolve, reject) =>
      this.#members.push({ kept, resolve, reject }),
    )
    if (this.#members.length >= GROUP_LIMIT || !this.conn.inTransaction) {
      try {
        await this.#commit()
      } finally {
        release()
      }
    } else {
      this.#commitQueued ??= new Promise((resolve) => setImmediate(resolve)).then(() =>
        this.#queuedCommit(),
      )
      release()
    }
    return committed
  }

  /** Resolves once nothing waits for a commit (before closing the connection). */
  async idle() {
    while (this.#commitQueued) await this.#commitQueued
  }

  async #queuedCommit() {
    const release = await this.lock.acquire(Date.now() + COMMIT_WAIT_MS)
    this.#commitQueued = undefined
    try {
      await this.#commit()
    } finally {
      release()
    }
  }

  /** With the lock held: commits the group (if any) and answers its writers. */
  async #commit() {
    if (this.#members.length === 0) return
    try {
      if (this.conn.inTransaction) {
        await retryWhileBusy(() => this.conn.exec('commit'), Date.now() + this.waitMs)
      } else if (this.#members.some((m) => m.kept)) {
        throw new Error('SQLite rolled the transaction back')
      }
      this.#settle()
    } catch (err) {
      try {
        rollback(this.conn)
      } finally {
        this.#settle(err)
      }
    }
  }

  /** Answers the group: committed, or `err` for the writers whose work was lost. */
  #settle(err?: unknown) {
    for (const member of this.#members.splice(0)) {
      if (err !== undefined && member.kept) member.reject(err)
      else member.resolve()
    }
  }
}

export interface SqliteOptions {
  path: string
  /** How long a write may wait for the lock, in all (SQLITE_LOCK_WAIT_MS). */
  lockWaitMs?: number
}

/**
 * Kysely over Node's built-in `node:sqlite` (no native build), with two connections: reads
 * outside transactions go to their own connection, which WAL lets read while a writer holds
 * the lock; transactions and other writes take the write connection one at a time. Writes
 * wait for SQLite's lock asynchronously, so a lock held by another process never freezes the
 * server; past `lockWaitMs` they fail with DatabaseBusyError.
 */
class NodeSqliteDriver implements Driver {
  readonly #options: SqliteOptions
  #writer: Writer | undefined
  #read: Connection | undefined

  constructor(options: SqliteOptions) {
    this.#options = options
  }

  async init() {
    const { path } = this.#options
    const inMemory = path === ':memory:' || path.includes('mode=memory')
    if (!inMemory && !path.startsWith('file:')) mkdirSync(dirname(path), { recursive: true })
    const write = new Connection(path)
    const deadline = Date.now() + this.lockWaitMs
    // WAL lets readers proceed while one writer commits; NORMAL sync is durable enough with WAL
    // (what a crash can lose: see Writer).
    await retryWhileBusy(() => write.exec('PRAGMA journal_mode = WAL'), deadline)
    write.exec('PRAGMA synchronous = NORMAL')
    write.exec('PRAGMA foreign_keys = ON')
    this.#writer = new Writer(write, this.lockWaitMs)
    // A second connection to an in-memory database would be another, empty, database.
    this.#read = inMemory ? write : new Connection(path)
    if (this.#read !== write) this.#read.exec('PRAGMA foreign_keys = ON')
  }

  get lockWaitMs() {
    return this.#options.lockWaitMs ?? DEFAULT_LOCK_WAIT_MS
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    return new Session(this.#writer!, this.#read!, this.lockWaitMs)
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
    await this.#writer?.idle()
    const write = this.#writer?.conn
    if (this.#read && this.#read !== write) this.#read.close()
    write?.close()
  }
}

/** What Kysely calls a connection: one query, or one transaction, of one caller. */
class Session implements DatabaseConnection {
  #release: (() => void) | undefined

  constructor(
    readonly writer: Writer,
    readonly read: Connection,
    readonly waitMs: number,
  ) {}

  get write(): Connection {
    return this.writer.conn
  }

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    // Inside this session's transaction: the write connection, whose lock we hold.
    if (this.#release) return this.write.run(compiled) as QueryResult<R>
    const deadline = Date.now() + this.waitMs
    if (SelectQueryNode.is(compiled.query)) {
      return retryWhileBusy(() => this.read.run(compiled), deadline) as Promise<QueryResult<R>>
    }
    // A write on its own is a writer like a transaction: one statement, undone alone by SQLite
    // when it fails, answered once it is committed.
    const release = await this.writer.lock.acquire(deadline)
    let result: QueryResult<R>
    try {
      await this.writer.join(deadline)
      result = this.write.run(compiled) as QueryResult<R>
    } catch (err) {
      await this.writer.leave(release, false)
      throw err
    }
    await this.writer.leave(release, true)
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
   * BEGIN IMMEDIATE (or the group's open transaction): the write lock is taken up front, so a
   * read that turns into a write (the wallet's check-then-debit) never fails half-way with
   * SQLITE_BUSY. The caller's work goes in its own savepoint.
   */
  async begin() {
    const deadline = Date.now() + this.waitMs
    const release = await this.writer.lock.acquire(deadline)
    try {
      await this.writer.join(deadline)
      this.write.exec(`savepoint ${MEMBER}`)
    } catch (err) {
      await this.writer.leave(release, false)
      throw err
    }
    this.#release = release
  }

  /** Keeps or undoes the caller's work; returns once the transaction carrying it committed. */
  async end(how: 'commit' | 'rollback') {
    const release = this.#release
    if (!release) return
    this.#release = undefined
    let failure: unknown
    if (how === 'commit') {
      try {
        this.write.exec(`release ${MEMBER}`)
      } catch (err) {
        failure = err
      }
    }
    const kept = how === 'commit' && failure === undefined
    if (!kept && this.write.inTransaction) {
      try {
        this.write.exec(`rollback to ${MEMBER}`)
        this.write.exec(`release ${MEMBER}`)
      } catch (err) {
        // Undoing failed: the whole transaction goes, and the group with it (see Writer).
        rollback(this.write)
        failure ??= err
      }
    }
    await this.writer.leave(release, kept)
    if (failure !== undefined) throw failure
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
