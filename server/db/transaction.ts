import type { Kysely } from 'kysely'
import type { Database } from './schema'

/**
 * Runs `fn` in a transaction: a new one, or the caller's when `db` already is one (the demo
 * seed places its orders inside its own transaction, after its guard row).
 */
export function inTransaction<T>(
  db: Kysely<Database>,
  fn: (trx: Kysely<Database>) => Promise<T>,
): Promise<T> {
  return db.isTransaction ? fn(db) : db.transaction().execute(fn)
}
