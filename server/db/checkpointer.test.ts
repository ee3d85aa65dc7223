import { copyFileSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { Kysely, sql, type Generated } from 'kysely'
import { afterAll, expect, it } from 'vitest'
import { NodeSqliteDialect } from './sqlite'

const dir = mkdtempSync(join(tmpdir(), 'checkpointer-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** The rows of `notes` that the database file holds by itself, without its WAL. */
function rowsInFileAlone(path: string): number {
  const copy = join(dir, `copy-${Math.random()}.db`)
  copyFileSync(path, copy)
  const db = new DatabaseSync(copy)
  try {
    return Number(db.prepare('select count(*) as n from notes').get()!.n)
  } catch {
    return 0 // not even the table yet
  } finally {
    db.close()
  }
}

it("copies the server's commits into the database file while the server keeps it open", async () => {
  const path = join(dir, 'store.db')
  const db = new Kysely<{ notes: { id: Generated<number>; text: string } }>({
    dialect: new NodeSqliteDialect({ path }),
  })
  try {
    await sql`create table notes (id integer primary key, text text not null)`.execute(db)
    for (let i = 0; i < 50; i++)
      await db
        .insertInto('notes')
        .values({ text: `note ${i}` })
        .execute()
    // The commit's own connection no longer checkpoints (too few pages for SQLite's default
    // anyway); the server's checkpoint thread does, within a few tenths of a second.
    const deadline = Date.now() + 5000
    while (rowsInFileAlone(path) < 50 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 50))
    expect(rowsInFileAlone(path)).toBe(50)
  } finally {
    await db.destroy()
  }
  // Closed: the file holds everything and the WAL is gone.
  expect(rowsInFileAlone(path)).toBe(50)
})
