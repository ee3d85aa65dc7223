import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Kysely, sql, type Generated } from 'kysely'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { NodeSqliteDialect } from './sqlite'

/*
 * Group commit (db/sqlite.ts, Writer): writers that queue for the lock share one SQLite
 * commit, each in its own savepoint, and nobody is answered before that commit.
 */

interface Schema {
  items: { id: Generated<number>; name: string }
}

let dir: string
let db: Kysely<Schema>

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'store-group-'))
  db = new Kysely<Schema>({ dialect: new NodeSqliteDialect({ path: join(dir, 'g.db') }) })
  await sql`create table items (id integer primary key, name text not null unique)`.execute(db)
})

afterEach(async () => {
  await db.destroy()
  rmSync(dir, { recursive: true, force: true })
})

/** Rows as another reader sees them: committed ones only. */
const committed = async () =>
  (await db.selectFrom('items').select('name').orderBy('id').execute()).map((r) => r.name)

it('undoes a failing writer alone, and answers each once its work is committed', async () => {
  const outcomes = await Promise.allSettled(
    Array.from({ length: 40 }, (_, i) =>
      db.transaction().execute(async (trx) => {
        await trx
          .insertInto('items')
          .values({ name: `t${i}` })
          .execute()
        if (i % 3 === 0) throw new Error(`refused ${i}`)
        await trx
          .insertInto('items')
          .values({ name: `u${i}` })
          .execute()
        // Answered: what it wrote is visible to every reader already.
        return i
      }),
    ),
  )
  const kept = outcomes.flatMap((o) => (o.status === 'fulfilled' ? [o.value] : []))
  expect(kept).toEqual(Array.from({ length: 40 }, (_, i) => i).filter((i) => i % 3 !== 0))
  for (const o of outcomes) {
    if (o.status === 'rejected') expect(String(o.reason)).toMatch(/refused \d+/)
  }
  expect((await committed()).sort()).toEqual(kept.flatMap((i) => [`t${i}`, `u${i}`]).sort())
})

it('answers single writes after their commit, a failing one with its own error', async () => {
  const results = await Promise.allSettled(
    ['a', 'b', 'a', 'c', 'b', 'd'].map(async (name) => {
      await db.insertInto('items').values({ name }).execute()
      // Answered: another reader sees it.
      expect(await committed()).toContain(name)
    }),
  )
  expect(results.map((r) => r.status)).toEqual([
    'fulfilled',
    'fulfilled',
    'rejected',
    'fulfilled',
    'rejected',
    'fulfilled',
  ])
  expect(String((results[2] as PromiseRejectedResult).reason)).toMatch(/UNIQUE/)
  expect(await committed()).toEqual(['a', 'b', 'c', 'd'])
})

it('keeps working after a writer breaks off inside its savepoint', async () => {
  await Promise.allSettled([
    db.transaction().execute(async (trx) => {
      await trx.insertInto('items').values({ name: 'x' }).execute()
    }),
    db.transaction().execute(async (trx) => {
      await trx.insertInto('items').values({ name: 'x' }).execute()
    }),
    db.insertInto('items').values({ name: 'y' }).execute(),
  ])
  expect(await committed()).toEqual(['x', 'y'])
  await db.insertInto('items').values({ name: 'z' }).execute()
  expect(await committed()).toEqual(['x', 'y', 'z'])
})
