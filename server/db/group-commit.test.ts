import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql, type Kysely } from 'kysely'
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createDb, type Db } from '.'
import { groupedStatement, groupedTransaction } from './group-commit'
import type { Database } from './schema'

/* Group commit on SQLite (db/group-commit.ts): the writes of a moment share a transaction. */

const dir = mkdtempSync(join(tmpdir(), 'store-group-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

// Tables of this test only, outside the store's schema.
type Untyped = Kysely<Record<string, Record<string, unknown>>>
const raw = (db: Kysely<Database>) => db as unknown as Untyped

describe('group commit (SQLite)', () => {
  let store: Db
  /** Another connection, as another process would read the file. */
  let other: Db
  let n = 0

  beforeEach(async () => {
    const path = join(dir, `group-${n++}.db`)
    store = createDb({ databaseUrl: undefined, sqlitePath: path })
    other = createDb({ databaseUrl: undefined, sqlitePath: path })
    await sql`create table parent (id integer primary key, v text unique)`.execute(store.db)
    await sql`create table child (id integer primary key,
      parent_id integer references parent (id) deferrable initially deferred)`.execute(store.db)
  })
  afterEach(async () => {
    await store.destroy()
    await other.destroy()
  })

  const insert = (v: string) => (db: Kysely<Database>) =>
    raw(db).insertInto('parent').values({ v }).execute()
  const committed = async () =>
    (await raw(other.db).selectFrom('parent').select('v').orderBy('id').execute()).map((r) => r.v)

  it('shares transactions among the writes of a moment, each answered once it is on disk', async () => {
    const transactions = vi.spyOn(store.db, 'transaction')
    const seen: unknown[][] = []
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        groupedStatement(store.db, insert(`v${i}`)).then(async () => {
          seen.push(await committed())
        }),
      ),
    )
    // Asked for in one turn of the event loop: one transaction for all of them.
    expect(transactions).toHaveBeenCalledTimes(1)
    expect(await committed()).toHaveLength(20)
    // Whoever heard back found their row committed, in another connection.
    for (const [i, rows] of seen.entries()) expect(rows.length).toBeGreaterThan(i === 0 ? 0 : 1)
  })

  it('undoes a failed write alone, and tells only its caller', async () => {
    const results = await Promise.allSettled([
      groupedStatement(store.db, insert('a')),
      groupedStatement(store.db, insert('b')),
      groupedStatement(store.db, insert('a')), // unique violation
      groupedTransaction(store.db, async (trx) => {
        await insert('c')(trx)
        throw new Error('changed its mind')
      }),
      groupedStatement(store.db, insert('d')),
    ])
    expect(results.map((r) => r.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'rejected',
      'rejected',
      'fulfilled',
    ])
    expect((results[3] as PromiseRejectedResult).reason).toEqual(new Error('changed its mind'))
    expect(await committed()).toEqual(['a', 'b', 'd'])
  })

  it('fails every write of a group whose commit fails, and keeps none', async () => {
    await groupedStatement(store.db, insert('before'))
    const results = await Promise.allSettled([
      groupedStatement(store.db, insert('x')),
      groupedStatement(store.db, insert('y')),
      // Checked at the commit: no parent 999.
      groupedStatement(store.db, (db) =>
        raw(db).insertInto('child').values({ parent_id: 999 }).execute(),
      ),
      groupedStatement(store.db, insert('z')),
    ])
    // The four, asked for in one turn of the event loop, shared the failed commit.
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected', 'rejected'])
    expect(await committed()).toEqual(['before'])
    // And the next writes go on as before.
    await groupedStatement(store.db, insert('after'))
    expect(await committed()).toEqual(['before', 'after'])
  })

  it('lets a write asked for while a group runs wait for the next group', async () => {
    const transactions = vi.spyOn(store.db, 'transaction')
    let later: Promise<unknown> | undefined
    await groupedTransaction(store.db, async (trx) => {
      later = groupedStatement(store.db, insert('later'))
      await insert('first')(trx)
    })
    await later
    // The later one was not in the first transaction, nor lost.
    expect(transactions).toHaveBeenCalledTimes(2)
    expect(await committed()).toEqual(['first', 'later'])
  })

  it('runs in the caller’s transaction when there is one', async () => {
    await store.db.transaction().execute(async (trx) => {
      await groupedStatement(trx, insert('inside'))
      await groupedTransaction(trx, insert('inside too'))
    })
    expect(await committed()).toEqual(['inside', 'inside too'])
  })
})
