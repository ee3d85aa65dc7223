import type { Kysely } from 'kysely'
import type { Database } from './schema'

/**
 * Writes that a request does not wait for (the record of an order's hand-over, after its
 * reply: services/order-status.ts), kept per database so that closing it (Db.destroy) waits
 * for them first: none is cut off by a shutdown.
 */
const pending = new WeakMap<Kysely<Database>, Set<Promise<void>>>()

/** Keeps `work` until it settles; its errors are the caller's to handle. */
export function inBackground(db: Kysely<Database>, work: Promise<unknown>): void {
  let set = pending.get(db)
  if (!set) pending.set(db, (set = new Set()))
  const settled = work.then(
    () => undefined,
    () => undefined,
  )
  set.add(settled)
  void settled.then(() => set.delete(settled))
}

/** Resolves once the database's background writes, those started meanwhile too, are done. */
export async function backgroundSettled(db: Kysely<Database>): Promise<void> {
  const set = pending.get(db)
  while (set && set.size > 0) await Promise.all(set)
}
