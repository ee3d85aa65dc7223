import { sql } from 'kysely'
import { expect, it } from 'vitest'
import { describeEachDatabase } from '../test/context'
import { catalogueRowsFromDb } from '../services/catalogue-rows'
import { customer, order, packageId } from '../test/orders'

/* The hot statements run as named, prepared statements on PostgreSQL (db/named-statements.ts). */

describeEachDatabase(
  'named statements',
  (ctx) => {
    const prepared = async () =>
      (
        await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(
          ctx.db,
        )
      ).rows.map((r) => r.statement)

    it('prepares the order’s statements once per connection, and only those', async () => {
      const { token } = await customer(ctx)
      const pkg = await packageId(ctx, 27, 'iTunes $5')
      // One connection at a time: the pool hands the same one back.
      for (let i = 0; i < 3; i++) {
        expect((await order(ctx.app, token, { package_id: pkg, quantity: '1' })).status).toBe(200)
      }
      const statements = await prepared()
      expect(statements.some((s) => s.includes('with debited as'))).toBe(true)
      expect(statements.some((s) => s.includes('from "content_version"'))).toBe(true)
      // A query built for one call is not kept, nor one whose plan depends on its arguments.
      expect(statements.some((s) => s.includes('pg_prepared_statements'))).toBe(false)
      expect(statements.some((s) => s.includes('"sessions"'))).toBe(false)
      expect(new Set(statements).size).toBe(statements.length)
    })

    it('goes on when a table it reads whole gains or loses a column meanwhile', async () => {
      const id = Number(await packageId(ctx, 27, 'iTunes $5'))
      const read = () => catalogueRowsFromDb.package(ctx.db, id)
      // Prepared on this connection, and its generic plan made (after five runs).
      for (let i = 0; i < 6; i++) expect((await read())?.name_en).toBe('iTunes $5')
      // As a migration of a newer release, run by another process, would.
      await sql`alter table packages add column probe text`.execute(ctx.db)
      try {
        expect(await read()).toMatchObject({ id, name_en: 'iTunes $5', probe: null })
      } finally {
        await sql`alter table packages drop column probe`.execute(ctx.db)
      }
      const row = await read()
      expect(row?.name_en).toBe('iTunes $5')
      expect(row).not.toHaveProperty('probe')
    })
  },
  { only: ['postgres'] },
)
