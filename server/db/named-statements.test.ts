import { sql } from 'kysely'
import { expect, it } from 'vitest'
import { POOL_SIZE } from '.'
import { describeEachDatabase } from '../test/context'
import { catalogueRowsFromDb } from '../services/catalogue-rows'
import { customer, order, packageId } from '../test/orders'

/* The hot statements run as named, prepared statements on PostgreSQL (db/named-statements.ts). */

describeEachDatabase(
  'named statements',
  (ctx) => {
    /** The statements prepared on each of the pool's connections: all of them held at once. */
    const preparedByConnection = async () => {
      let waiting = POOL_SIZE
      let allHeld!: () => void
      const held = new Promise<void>((resolve) => (allHeld = resolve))
      return Promise.all(
        Array.from({ length: POOL_SIZE }, () =>
          ctx.db.connection().execute(async (connection) => {
            const { rows } = await sql<{
              statement: string
            }>`select statement from pg_prepared_statements`.execute(connection)
            if (--waiting === 0) allHeld()
            await held
            return rows.map((r) => r.statement)
          }),
        ),
      )
    }

    it('prepares the order’s statements once per connection, and only those', async () => {
      const { token } = await customer(ctx)
      const pkg = await packageId(ctx, 27, 'iTunes $5')
      for (let i = 0; i < 3; i++) {
        expect((await order(ctx.app, token, { package_id: pkg, quantity: '1' })).status).toBe(200)
      }
      // A catalogue read reads the content version (an order through a session has it from the
      // session's read).
      expect((await ctx.app.request('/api/products/27')).status).toBe(200)
      const connections = await preparedByConnection()
      const statements = connections.flat()
      expect(statements.some((s) => s.includes('with debited as'))).toBe(true)
      expect(statements.some((s) => s.includes('from "content_version"'))).toBe(true)
      // A query built for one call is not kept, nor one whose plan depends on its arguments.
      expect(statements.some((s) => s.includes('pg_prepared_statements'))).toBe(false)
      expect(statements.some((s) => s.includes('"sessions"'))).toBe(false)
      for (const own of connections) expect(new Set(own).size).toBe(own.length)
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
