import { expect, it } from 'vitest'
import { createDb } from '.'
import { migrateToLatest, migrations } from './migrations'
import { demoSeed, SEED_META_KEY, seedDemo } from './seed'
import { describeEachDatabase } from '../test/context'

describeEachDatabase('database', (ctx) => {
  it('has run every migration, and running them again changes nothing', async () => {
    expect(await migrateToLatest(ctx.db, ctx.dialect)).toEqual([])
    const names = await ctx.db
      .selectFrom('kysely_migration' as never)
      .select('name' as never)
      .execute()
    expect(names.map((r) => (r as { name: string }).name)).toEqual(
      Object.keys(migrations(ctx.dialect)),
    )
  })

  it('loads the demo content exactly once, even when asked concurrently', async () => {
    const counts = async () =>
      Number(
        (
          await ctx.db
            .selectFrom('slider_images')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      )
    const before = await counts()
    expect(before).toBeGreaterThan(0)
    // On PostgreSQL a second pool stands in for a second instance starting up. (SQLite is
    // one process per file; see createDb.)
    const other = ctx.dialect === 'postgres' ? createDb(ctx.config) : undefined
    try {
      const results = await Promise.all([
        seedDemo(ctx.db),
        seedDemo((other ?? ctx).db),
        seedDemo(ctx.db),
      ])
      expect(results).toEqual([false, false, false])
    } finally {
      await other?.destroy()
    }
    expect(await counts()).toBe(before)
    const guard = await ctx.db
      .selectFrom('meta')
      .select('value')
      .where('key', '=', SEED_META_KEY)
      .executeTakeFirst()
    expect(Date.parse(guard?.value ?? '')).not.toBeNaN()
  })

  it('seeds the demo accounts with their balances and a history line each', async () => {
    const users = await ctx.db
      .selectFrom('users')
      .select(['id', 'username', 'phone_number', 'email', 'type', 'currency', 'balance'])
      .orderBy('id')
      .execute()
    expect(users.map(({ id: _, ...u }) => u)).toEqual(
      demoSeed.users.map((u) => ({
        username: u.username,
        phone_number: u.phone_number,
        email: u.email,
        type: u.type,
        currency: 'USD',
        balance: Number(u.balance) * 1_000_000,
      })),
    )
    const logs = await ctx.db
      .selectFrom('wallet_logs')
      .select(['user_id', 'status', 'value', 'current_balance'])
      .orderBy('id')
      .execute()
    expect(logs).toEqual(
      users.map((u) => ({
        user_id: u.id,
        status: 'Charged',
        value: u.balance,
        current_balance: u.balance,
      })),
    )
  })

  it('refuses a negative balance and a second account with the same name or phone', async () => {
    await expect(
      ctx.db.updateTable('users').set({ balance: -1n }).where('username', '=', 'demo').execute(),
    ).rejects.toThrow()
    const copy = {
      username: 'Demo',
      username_key: 'demo',
      phone_number: '+96170000009',
      email: null,
      password_hash: 'x',
      type: 'CUSTOMER' as const,
      currency: 'USD' as const,
      locale: 'en' as const,
      api_token: null,
      ip_whitelist: null,
      created_at: new Date().toISOString(),
    }
    await expect(ctx.db.insertInto('users').values(copy).execute()).rejects.toThrow()
    await expect(
      ctx.db
        .insertInto('users')
        .values({ ...copy, username_key: 'demo2', phone_number: demoSeed.users[0].phone_number })
        .execute(),
    ).rejects.toThrow()
  })

  it('keeps the demo out once an operator has emptied the tables', async () => {
    await ctx.db.deleteFrom('about_images').execute()
    expect(await seedDemo(ctx.db)).toBe(false)
    const left = await ctx.db.selectFrom('about_images').select('id').execute()
    expect(left).toEqual([])
  })

  it('generates integer ids and reads them back as numbers', async () => {
    const a = await ctx.db
      .insertInto('messages')
      .values({
        name: 'A',
        phone_number: '1',
        message: 'm',
        locale: 'en',
        ip: null,
        created_at: '2025-01-01T00:00:00.000Z',
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    const b = await ctx.db
      .insertInto('messages')
      .values({
        name: 'B',
        phone_number: '1',
        message: 'm',
        locale: 'en',
        ip: null,
        created_at: '2025-01-01T00:00:00.000Z',
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    expect(typeof a.id).toBe('number')
    expect(b.id).toBeGreaterThan(a.id)
  })

  it('allows only one row in singleton tables', async () => {
    await expect(
      ctx.db
        .insertInto('contact_info')
        .values({ id: 2, updated_at: new Date().toISOString() })
        .execute(),
    ).rejects.toThrow()
  })
})
