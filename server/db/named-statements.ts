import type pg from 'pg'

/*
 * PostgreSQL parses and plans an unnamed statement anew each time it runs; a named one once
 * per connection. The hot path's statements (db/prepared.ts, the session read, the calls that
 * place orders and record hand-overs, the content version) are registered here by their SQL
 * and run as named statements on every pooled connection: for an order that was most of
 * PostgreSQL's CPU time (docs/architecture.md, "Orders"). Only registered statements are named, so the server keeps a fixed few per
 * connection, however many other queries it builds.
 */

/** The SQL of each registered statement, and the name it is prepared under. */
const names = new Map<string, string>()
let generation = 0

const nextName = () => `hot_${++generation}`

/** Registers a statement whose SQL never changes, to be prepared once per connection. */
export function nameStatement(sql: string): void {
  if (!names.has(sql)) names.set(sql, nextName())
}

/**
 * PostgreSQL refuses to run a prepared `select *` once its table has gained or lost a column
 * (a migration run by another process while this one serves): the statement is prepared again
 * under a new name, and the call runs as if it were the first.
 */
const isStalePlan = (err: unknown) =>
  (err as { code?: unknown } | null)?.code === '0A000' &&
  /cached plan must not change result type/.test((err as Error).message)

type Query = (...args: unknown[]) => unknown

/**
 * Makes the pool's connections run the registered statements as named ones. Kysely calls
 * `query(sql, parameters)`; every other form of call (a cursor, a callback) goes through
 * untouched.
 */
export function useNamedStatements(pool: pg.Pool): void {
  pool.on('connect', (client) => {
    const query = client.query.bind(client) as Query
    const run = (text: string, values: unknown, name: string) =>
      query({ name, text, values }) as Promise<unknown>
    const named: Query = (...args) => {
      const [text, values] = args
      const name = args.length === 2 && typeof text === 'string' ? names.get(text) : undefined
      if (name === undefined) return query(...args)
      return run(text as string, values, name).catch((err: unknown) => {
        if (!isStalePlan(err)) throw err
        // The first connection to meet the change names the statement anew for all.
        if (names.get(text as string) === name) names.set(text as string, nextName())
        return run(text as string, values, names.get(text as string)!)
      })
    }
    ;(client as unknown as { query: Query }).query = named
  })
}
