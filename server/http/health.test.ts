import pg from 'pg'
import { sql } from 'kysely'
import { expect, it } from 'vitest'
import { createApp } from '../app'
import { describeEachDatabase } from '../test/context'

describeEachDatabase('health and readiness', (ctx) => {
  const get = (path: string) => ctx.app.request(path)

  it('answers /healthz and /readyz without a session or a limit, saying nothing else', async () => {
    const replies = await Promise.all(
      Array.from({ length: 100 }, (_, i) => get(i % 2 ? '/healthz' : '/readyz')),
    )
    expect(replies.map((r) => r.status)).toEqual(replies.map(() => 200))
    for (const res of replies.slice(0, 2)) {
      expect(await res.json()).toEqual({ status: 'ok' })
      expect(res.headers.get('cache-control')).toBe('no-store')
    }
  })

  it('is not ready while a migration is missing, and ready again once it is there', async () => {
    const last = await sql<{
      name: string
      timestamp: string
    }>`select name, timestamp from kysely_migration order by name desc limit 1`.execute(ctx.db)
    const { name, timestamp } = last.rows[0]!
    await sql`delete from kysely_migration where name = ${name}`.execute(ctx.db)
    try {
      const res = await get('/readyz')
      expect(res.status).toBe(503)
      expect(await res.json()).toEqual({ status: 'unavailable', reason: 'migrations pending' })
      // The process itself still answers.
      expect((await get('/healthz')).status).toBe(200)
    } finally {
      await sql`insert into kysely_migration (name, timestamp) values (${name}, ${timestamp})`.execute(
        ctx.db,
      )
    }
    expect((await get('/readyz')).status).toBe(200)
  })

  it('says shutting down once the process stops', async () => {
    let stopping = false
    const app = createApp({ db: ctx.db, config: ctx.config, isStopping: () => stopping })
    expect((await app.request('/readyz')).status).toBe(200)
    stopping = true
    const res = await app.request('/readyz')
    expect(res.status).toBe(503)
    expect(await res.json()).toEqual({ status: 'unavailable', reason: 'shutting down' })
  })
})

describeEachDatabase(
  'readiness without the database',
  (ctx) => {
    it('answers 503 while PostgreSQL refuses connections, and 200 once it takes them again', async () => {
      const name = new URL(ctx.config.databaseUrl!).pathname.slice(1)
      const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL })
      await admin.connect()
      const allow = (on: boolean) =>
        admin.query(`alter database "${name}" with allow_connections ${on}`)
      try {
        expect((await ctx.app.request('/readyz')).status).toBe(200)
        // The database goes: no new connection, and the pool's open ones cut.
        await allow(false)
        await admin.query(
          'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1',
          [name],
        )
        const gone = await ctx.app.request('/readyz')
        expect(gone.status).toBe(503)
        expect(await gone.json()).toEqual({ status: 'unavailable', reason: 'database unreachable' })
        expect((await ctx.app.request('/healthz')).status).toBe(200)
        // It comes back: the same app (no restart) is ready again.
        await allow(true)
        await expect
          .poll(async () => (await ctx.app.request('/readyz')).status, { timeout: 5000 })
          .toBe(200)
      } finally {
        await allow(true)
        await admin.end()
      }
    })

    it('keeps running when a connection in use is cut between two statements', async () => {
      const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL })
      await admin.connect()
      try {
        // A transaction holds its connection between statements; an administrator (or a
        // failover) cuts it there. Its socket error must not end the process.
        await ctx.db
          .transaction()
          .execute(async (trx) => {
            const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx)
            await admin.query('select pg_terminate_backend($1)', [rows[0]!.pid])
            await new Promise((resolve) => setTimeout(resolve, 300))
            await sql`select 1`.execute(trx)
          })
          .catch(() => undefined)
        await expect
          .poll(async () => (await ctx.app.request('/readyz')).status, { timeout: 5000 })
          .toBe(200)
      } finally {
        await admin.end()
      }
    })
  },
  { only: ['postgres'] },
)
