import type { Compilable, CompiledQuery, DialectAdapter, Kysely, QueryResult } from 'kysely'
import { nameStatement } from './named-statements'
import type { Database } from './schema'

/** Where an argument goes in a prepared query's parameters. */
class Slot {
  constructor(readonly name: string) {}
}

/**
 * A query of the hot path (ordering, sessions) built and compiled once per dialect, then run
 * with new arguments: Kysely's building and compiling cost more CPU than SQLite's running of
 * such a statement (docs/architecture.md, Database); PostgreSQL prepares it once per connection
 * (db/named-statements.ts), so only a statement whose kept plan cannot go wrong with the
 * table's size belongs here (a lookup by a unique key, an insert). `build` gets stand-ins
 * with the keys of the first call's arguments, each marking where that argument's value goes,
 * so it must pass arguments into the query as values only: never branch on one or build SQL from it. Every
 * call gives every key, null rather than undefined (a missing value is a bug: it throws).
 */
export function prepared<A extends Record<string, unknown>, R>(
  build: (db: Kysely<Database>, args: A) => Compilable<R>,
): (db: Kysely<Database>, args: A) => Promise<QueryResult<R>> {
  // One compilation per dialect; a transaction shares its database's adapter.
  const compiled = new WeakMap<DialectAdapter, { query: CompiledQuery<R>; slots: unknown[] }>()
  return (db, args) => {
    const adapter = db.getExecutor().adapter
    let entry = compiled.get(adapter)
    if (!entry) {
      const stand = Object.fromEntries(Object.keys(args).map((k) => [k, new Slot(k)])) as A
      const query = build(db, stand).compile()
      entry = { query, slots: [...query.parameters] }
      nameStatement(query.sql)
      compiled.set(adapter, entry)
    }
    const { query, slots } = entry
    const parameters = slots.map((p) => {
      if (!(p instanceof Slot)) return p
      const value = args[p.name]
      if (value === undefined) throw new TypeError(`prepared query: no value for ${p.name}`)
      return value
    })
    // The same queryId every run: the plugins this store uses keep no state per query.
    return db.executeQuery<R>({ ...query, parameters })
  }
}
