import { CompiledQuery, SqliteAdapter, type Kysely } from 'kysely'
import type { Database } from './schema'
import { laterDurability } from './durability'

/** At most this many writes share one transaction. */
const MAX_GROUP = 64

const SAVEPOINT = CompiledQuery.raw('savepoint grouped')
const RELEASE = CompiledQuery.raw('release grouped')
const ROLLBACK_TO = CompiledQuery.raw('rollback to grouped')

interface Job {
  fn: (trx: Kysely<Database>) => Promise<unknown>
  outcome?: { ok: true; value: unknown } | { ok: false; error: unknown }
  resolve: (value: unknown) => void
  reject: (error: unknown) => void
}

/**
 * Group commit for SQLite (docs/architecture.md, "Orders"): the writes that arrive while a
 * transaction of them is running wait and then share the next one, each inside its own
 * savepoint. A write that fails is rolled back to its savepoint alone, as its own transaction
 * would have been; the others go on. Every caller, failed or not, hears back only once the
 * shared transaction has committed and, with SQLITE_SYNCHRONOUS=FULL, is on disk (the next
 * group runs during that flush): a reply never tells of a write that is not on disk, and a
 * call that found another's uncommitted row (the same Idempotency-Key) reads that row's reply
 * after it is committed. When the commit fails, every write of the group fails and nothing of
 * it is kept. With nothing running, a write waits for the end of the current turn of the
 * event loop (setImmediate), so that the writes of the requests read in that turn share one
 * transaction: a commit costs several times what an order's own statements do.
 *
 * Only for writes whose callers read nothing back outside their own transaction before
 * replying (placing an order and recording its hand-over): a read outside the transaction
 * (on the read connection while it is open, db/sqlite.ts) does not see a group's writes before
 * the commit. Rate limits and code checks stay in their own
 * transactions.
 */
class GroupCommit {
  readonly #db: Kysely<Database>
  #queue: Job[] = []
  #running = false

  constructor(db: Kysely<Database>) {
    this.#db = db
  }

  run<T>(fn: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#queue.push({ fn, resolve: resolve as (value: unknown) => void, reject })
      if (!this.#running) void this.#drain()
    })
  }

  async #drain() {
    this.#running = true
    try {
      // The writes of this turn of the event loop go together: the requests read from the
      // sockets in one poll phase reach here in the microtasks after it, one after another.
      await new Promise((resolve) => setImmediate(resolve))
      while (this.#queue.length > 0) {
        const group = this.#queue.splice(0, MAX_GROUP)
        // Committed, the group waits for its flush to disk (SQLITE_SYNCHRONOUS=FULL) while the
        // next group runs: the disk's wait is shared, the event loop's work goes on.
        const flush: { durable?: Promise<void> } = {}
        try {
          await laterDurability.run(flush, () =>
            this.#db.transaction().execute(async (trx) => {
              for (const job of group) {
                await trx.executeQuery(SAVEPOINT)
                try {
                  job.outcome = { ok: true, value: await job.fn(trx) }
                  await trx.executeQuery(RELEASE)
                } catch (error) {
                  job.outcome = { ok: false, error }
                  // Throws when SQLite has ended the whole transaction (it does after a few
                  // errors): then the group fails as one, below.
                  await trx.executeQuery(ROLLBACK_TO)
                  await trx.executeQuery(RELEASE)
                }
              }
            }),
          )
        } catch (error) {
          for (const job of group) job.reject(error)
          continue
        }
        const answer = () => {
          for (const job of group) {
            const outcome = job.outcome!
            if (outcome.ok) job.resolve(outcome.value)
            else job.reject(outcome.error)
          }
        }
        if (flush.durable)
          flush.durable.then(answer, (error: unknown) => {
            for (const job of group) job.reject(error)
          })
        else answer()
      }
    } finally {
      this.#running = false
    }
  }
}

const groups = new WeakMap<Kysely<Database>, GroupCommit>()

function group(db: Kysely<Database>): GroupCommit | undefined {
  if (db.isTransaction || !(db.getExecutor().adapter instanceof SqliteAdapter)) return undefined
  let found = groups.get(db)
  if (!found) groups.set(db, (found = new GroupCommit(db)))
  return found
}

/**
 * Runs `fn` in a transaction shared with other grouped writes on SQLite (see GroupCommit);
 * in its own transaction on PostgreSQL, which commits concurrent transactions together by
 * itself; in the caller's when `db` already is a transaction.
 */
export function groupedTransaction<T>(
  db: Kysely<Database>,
  fn: (trx: Kysely<Database>) => Promise<T>,
): Promise<T> {
  return group(db)?.run(fn) ?? (db.isTransaction ? fn(db) : db.transaction().execute(fn))
}

/** One statement: grouped on SQLite, run on its own (it is its own transaction) elsewhere. */
export function groupedStatement<T>(
  db: Kysely<Database>,
  fn: (db: Kysely<Database>) => Promise<T>,
): Promise<T> {
  return group(db)?.run(fn) ?? fn(db)
}
