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
              generic_plans: string
            }>`select statement, generic_plans from pg_prepared_statements`.execute(connection)
            if (--waiting === 0) allHeld()
            await held
            return rows
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
      const connections = (await preparedByConnection()).map((own) => own.map((r) => r.statement))
      const statements = connections.flat()
      for (const statement of [
        'from place_orders(',
        'select record_hand_overs(',
        'from sessions',
        'from "content_version"',
      ])
        expect(statements.some((s) => s.includes(statement))).toBe(true)
      // A query built for one call is not kept.
      expect(statements.some((s) => s.includes('pg_prepared_statements'))).toBe(false)
      for (const own of connections) expect(new Set(own).size).toBe(own.length)
    })

    it('reads sessions by lookups in the plan it keeps, however many sessions there are', async () => {
      const { user, token } = await customer(ctx)
      // Enough reads for some connection to have run the read six times: after five, PostgreSQL
      // keeps a generic plan unless custom ones look cheaper.
      for (let i = 0; i < 6 * POOL_SIZE; i++) {
        const profile = await ctx.app.request('/api/profile', {
          headers: { authorization: `Bearer ${token}` },
        })
        expect(profile.status).toBe(200)
      }
      const reads = (await preparedByConnection())
        .flat()
        .filter((r) => r.statement.includes('from sessions'))
      expect(reads.some((r) => Number(r.generic_plans) > 0)).toBe(true)
      const read = reads[0]!.statement
      // Two thousand more sessions (a day of sign-ins), never analyzed, as on a new store.
      await sql`
        insert into sessions (user_id, token_hash, created_at, last_used_at)
        select ${user.id}, md5(n::text) || md5(n::text), '2026-01-01', '2026-01-01'
        from generate_series(1, 2000) n`.execute(ctx.db)
      // The plan PostgreSQL keeps for a named statement once it has run five times.
      const plan = await ctx.db.transaction().execute(async (trx) => {
        await sql`set local plan_cache_mode = force_generic_plan`.execute(trx)
        await sql.raw(`prepare session_read as ${read}`).execute(trx)
        const { rows } = await sql<{
          'QUERY PLAN': string
        }>`explain execute session_read(array[md5('1') || md5('1'), md5('2') || md5('2')])`.execute(
          trx,
        )
        await sql`deallocate session_read`.execute(trx)
        return rows.map((r) => r['QUERY PLAN']).join('\n')
      })
      expect(plan).toMatch(/Index Scan using sessions_token_hash_key/)
      expect(plan).not.toMatch(/Seq Scan/)
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
