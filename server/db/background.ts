import type { Kysely } from 'kysely'

/**
 * Writes that a request does not wait for (the record of an order's hand-over, after its
 * reply: services/order-status.ts), kept per database so that closing it (Db.destroy) waits
 * for them first: none is cut off by a shutdown.
 */
const pending = new WeakMap<Kysely<never>, Set<Promise<void>>>()

/** Keeps `work` until it settles; its errors are the caller's to handle. */
export function inBackground<D>(db: Kysely<D>, work: Promise<unknown>): void {
  const key = db as unknown as Kysely<never>
  let set = pending.get(key)
  if (!set) pending.set(key, (set = new Set()))
  const settled = work.then(
    () => undefined,
    () => undefined,
  )
  set.add(settled)
  void settled.then(() => set.delete(settled))
}

/** Resolves once the database's background writes, those started meanwhile too, are done. */
export async function backgroundSettled<D>(db: Kysely<D>): Promise<void> {
  const set = pending.get(db as unknown as Kysely<never>)
  while (set && set.size > 0) await Promise.all(set)
}
