import type { Kysely } from 'kysely'
import { nameStatement } from '../db/named-statements'
import type { Database } from '../db/schema'

/**
 * The content version: a counter the database moves on at every write to the catalogue or
 * the site content, by triggers, so writes from another process (the operator CLI) or from a
 * maintenance shell count too (migration 0011_content_version, docs/architecture.md).
 */
export function contentVersionReader(db: Kysely<Database>): () => Promise<string> {
  // Built once: each read only runs the statement.
  const query = db.selectFrom('content_version').select('version').where('id', '=', 1).compile()
  nameStatement(query.sql)
  return async () => {
    const { rows } = await db.executeQuery(query)
    const row = rows[0]
    if (!row) throw new Error('content_version has no row')
    return String(row.version)
  }
}

/**
 * Reads a value for many callers at once without ever answering one of them with a read that
 * began before it asked. A read starts on the event loop's next turn, after the requests that
 * came in with this one, and answers all of them; a caller arriving while a read runs waits
 * for the next one. So under load the database sees about one read per turn of the loop, not
 * one per request, and a write that committed before a request arrived is always seen by it.
 */
export class FreshRead<T> {
  readonly #read: () => Promise<T>
  /** The read that has not started yet: whoever asks now may share it. */
  #pending: Promise<T> | undefined
  /** The read under way: too early for anyone asking now. */
  #running: Promise<T> | undefined

  constructor(read: () => Promise<T>) {
    this.#read = read
  }

  get(): Promise<T> {
    this.#pending ??= this.#startAfter(this.#running)
    return this.#pending
  }

  async #startAfter(previous: Promise<T> | undefined): Promise<T> {
    if (previous) await previous.catch(() => undefined)
    await new Promise((resolve) => setImmediate(resolve))
    // From here on a caller needs a later read than this one.
    this.#pending = undefined
    const running = this.#read()
    this.#running = running
    try {
      return await running
    } finally {
      if (this.#running === running) this.#running = undefined
    }
  }
}
