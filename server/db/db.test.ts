import { sql } from 'kysely'
import { Migrator } from 'kysely/migration'
import { expect, it } from 'vitest'
import { createDb } from '.'
import { inBackground } from './background'
import { migrateToLatest, migrations } from './migrations'
import { demoSeed, SEED_META_KEY, seedDemo } from '../demo/seed'
import { usernameKey } from '../core/username-key'
import { paymentSettings } from '../services/settings'
import { auditWallets } from '../services/wallet-audit'
import { describeEachDatabase } from '../test/context'

describeEachDatabase('database', (ctx) => {
  it('is closed only once the writes no request waits for are done', async () => {
    // A second store over the same database, as a server's own.
    const store = createDb(ctx.config)
    const done: string[] = []
    const later = async (name: string, ms: number) => {
      await new Promise((resolve) => setTimeout(resolve, ms))
      await sql`select 1`.execute(store.db)
      done.push(name)
    }
    inBackground(store.db, later('first', 30))
    inBackground(store.db, Promise.reject(new Error('a failed one does not stop the close')))
    // One started while the store waits for the others is waited for too.
    inBackground(
      store.db,
      later('second', 10).then(() => inBackground(store.db, later('third', 30))),
    )
    await store.destroy()
    expect(done.sort()).toEqual(['first', 'second', 'third'])
  })

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

  it('seeds the demo accounts, and the demo orders through the ordering services', async () => {
    const users = await ctx.db
      .selectFrom('users')
      .select(['id', 'username', 'phone_number', 'email', 'type', 'currency', 'balance'])
      .select('new_notifications_count')
      .orderBy('id')
      .execute()
    // demo: 100 USD, less iTunes $10 (10.40 + 3 %) and 325 UC (4.45 + 5 %); the canceled
    // Free Fire order (0.95 + 5 %) was refunded.
    const balances: Record<string, bigint> = { demo: 84_615_500n, acme: 1_000_000_000n }
    expect(users.map(({ id: _, ...u }) => u)).toEqual(
      demoSeed.users.map((u) => ({
        username: u.username,
        phone_number: u.phone_number,
        email: u.email,
        type: u.type,
        currency: 'USD',
        balance: balances[u.username],
        new_notifications_count: u.username === 'demo' ? 2 : 0,
      })),
    )
    const [demo, acme] = users
    const logs = await ctx.db
      .selectFrom('wallet_logs')
      .select(['user_id', 'status', 'value', 'previous_balance', 'current_balance'])
      .orderBy('id')
      .execute()
    const line = (
      user_id: number,
      status: string,
      previous: bigint,
      value: bigint,
      current: bigint,
    ) => ({ user_id, status, previous_balance: previous, value, current_balance: current })
    expect(logs).toEqual([
      line(demo!.id, 'Charged', 0n, 100_000_000n, 100_000_000n),
      line(demo!.id, 'Discounted', 100_000_000n, 10_712_000n, 89_288_000n),
      line(demo!.id, 'Discounted', 89_288_000n, 997_500n, 88_290_500n),
      line(demo!.id, 'Charged', 88_290_500n, 997_500n, 89_288_000n),
      line(demo!.id, 'Discounted', 89_288_000n, 4_672_500n, 84_615_500n),
      line(acme!.id, 'Charged', 0n, 1_000_000_000n, 1_000_000_000n),
    ])
    const orders = await ctx.db
      .selectFrom('orders')
      .select(['user_id', 'status', 'total_price', 'item_codes', 'refuse_reason', 'provider_ref'])
      .orderBy('id')
      .execute()
    expect(orders).toEqual([
      {
        user_id: demo!.id,
        status: 'COMPLETED',
        total_price: 10_712_000n,
        item_codes: '[{"code":"X7KQ-9PLM-3RTV-8WZD"}]',
        refuse_reason: null,
        provider_ref: null,
      },
      {
        user_id: demo!.id,
        status: 'CANCELED',
        total_price: 997_500n,
        item_codes: '[]',
        refuse_reason: 'The player ID does not exist in the game.',
        provider_ref: null,
      },
      {
        user_id: demo!.id,
        status: 'WAITING',
        total_price: 4_672_500n,
        item_codes: '[]',
        refuse_reason: null,
        provider_ref: null,
      },
    ])
    const notifications = await ctx.db
      .selectFrom('notifications')
      .select(['user_id', 'title'])
      .orderBy('id')
      .execute()
    expect(notifications).toEqual([
      { user_id: demo!.id, title: 'Order #1 completed' },
      { user_id: demo!.id, title: 'Order #2 canceled' },
    ])
  })

  it('refuses a negative balance and a second account with the same name or phone', async () => {
    await expect(
      ctx.db.updateTable('users').set({ balance: -1n }).where('username', '=', 'demo').execute(),
    ).rejects.toThrow()
    const copy = {
      username: 'Demo',
      username_key: usernameKey('Demo'),
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

  it("shows a transaction's writes to other reads only once it has committed", async () => {
    // On SQLite a read outside the transaction may go to the write connection (db/sqlite.ts),
    // but never while a transaction is open on it.
    const key = `isolation-${Date.now()}`
    const read = (db: typeof ctx.db) =>
      db.selectFrom('meta').select('value').where('key', '=', key).executeTakeFirst()
    await ctx.db.transaction().execute(async (trx) => {
      await trx.insertInto('meta').values({ key, value: 'written' }).execute()
      expect(await read(trx)).toEqual({ value: 'written' })
      expect(await read(ctx.db)).toBeUndefined()
    })
    expect(await read(ctx.db)).toEqual({ value: 'written' })
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

describeEachDatabase('migration 0005: username keys', (ctx) => {
  it('rekeys existing usernames; of two names that look alike, the older keeps the key', async () => {
    const migrator = new Migrator({
      db: ctx.db,
      provider: { getMigrations: async () => migrations(ctx.dialect) },
    })
    // Back to before 0005 (the later migrations step down first).
    const down = await migrator.migrateTo('0004_orders')
    expect(down.error).toBeUndefined()
    const since0005 = Object.keys(migrations(ctx.dialect)).filter((name) => name > '0004_orders')
    expect(since0005[0]).toBe('0005_security')
    expect(down.results?.map((r) => r.migrationName)).toEqual([...since0005].reverse())
    // A row as before 0005: its key NFC and lower case, and no `disabled_at` column yet.
    const insert = (username: string, phone: string) =>
      sql`insert into users (username, username_key, phone_number, password_hash, created_at)
        values (${username}, ${username.normalize('NFC').toLowerCase()}, ${phone}, 'x',
        ${new Date().toISOString()})`.execute(ctx.db)
    await insert('Zed', '+96171000901')
    await insert('z\u0435d', '+96171000902') // a Cyrillic e
    await insert('Bob', '+96171000903')

    expect(await migrateToLatest(ctx.db, ctx.dialect)).toEqual(since0005)
    const rows = await ctx.db
      .selectFrom('users')
      .select(['id', 'username', 'username_key', 'disabled_at'])
      .orderBy('id')
      .execute()
    const byName = Object.fromEntries(rows.map((r) => [r.username, r]))
    expect(byName.demo?.username_key).toBe(usernameKey('demo'))
    expect(byName.Zed?.username_key).toBe(usernameKey('Zed'))
    expect(byName['z\u0435d']?.username_key).toBe(`${usernameKey('Zed')}#${byName['z\u0435d']?.id}`)
    expect(byName.Bob?.username_key).toBe(usernameKey('bob'))
    expect(rows.every((r) => r.disabled_at === null)).toBe(true)
  })
})

describeEachDatabase('migration 0015: USDT constraints', (ctx) => {
  it('rewrites hashes in one spelling, keeps a twice-confirmed one apart, and one open request', async () => {
    const migrator = new Migrator({
      db: ctx.db,
      provider: { getMigrations: async () => migrations(ctx.dialect) },
    })
    // The USDT tables as 0009 made them: down past it, and up again to just before 0015.
    expect((await migrator.migrateTo('0008_api_tokens')).error).toBeUndefined()
    expect((await migrator.migrateTo('0014_notification_messages')).error).toBeUndefined()
    const now = Date.now()
    const at = (minutes: number) => new Date(now + minutes * 60_000).toISOString()
    const user = await ctx.db
      .selectFrom('users')
      .select('id')
      .where('username', '=', 'demo')
      .executeTakeFirstOrThrow()
    const request = (status: string, expires: number, hash: string | null = null) =>
      sql<{ id: number }>`insert into usdt_requests (user_id, network, address, amount,
        unique_amount, status, expires_at, watch_until, tx_hash, created_at)
        values (${user.id}, 'trc20', 'T', 1000000, ${1_000_000 + Math.round(Math.random() * 9999) * 100},
        ${status}, ${at(expires)}, ${at(expires + 120)}, ${hash}, ${at(-1)}) returning id`
        .execute(ctx.db)
        .then((r) => Number(r.rows[0]!.id))
    const paidA = await request('PAID', 30, `0x${'a'.repeat(64)}`)
    const paidB = await request('PAID', 30)
    const paidC = await request('PAID', 30)
    const expired = await request('OPEN', -5)
    const older = await request('OPEN', 20)
    const newest = await request('OPEN', 25)
    const transfer = (network: string, hash: string, requestId: number) =>
      sql`insert into usdt_transfers (network, tx_hash, log_index, from_address, to_address,
        amount, exact, block_number, block_time, outcome, request_id, created_at)
        values (${network}, ${hash}, -1, 'operator', 'T', 1000000, 1, 0, ${at(0)}, 'CREDITED',
        ${requestId}, ${at(0)})`.execute(ctx.db)
    // One TRC20 transaction confirmed twice by hand under two spellings (the old hole), and a
    // BEP20 hash typed without 0x.
    await transfer('trc20', `0x${'a'.repeat(64)}`, paidA)
    await transfer('trc20', 'A'.repeat(64), paidB)
    await transfer('bep20', 'b'.repeat(64), paidC)

    expect((await migrateToLatest(ctx.db, ctx.dialect))[0]).toBe('0015_usdt_constraints')
    const transfers = await ctx.db
      .selectFrom('usdt_transfers')
      .select(['network', 'tx_hash', 'log_index'])
      .orderBy('id')
      .execute()
    expect(transfers).toEqual([
      { network: 'trc20', tx_hash: 'a'.repeat(64), log_index: -1 },
      { network: 'trc20', tx_hash: 'a'.repeat(64), log_index: -2 },
      { network: 'bep20', tx_hash: `0x${'b'.repeat(64)}`, log_index: -1 },
    ])
    const statuses = await ctx.db
      .selectFrom('usdt_requests')
      .select(['id', 'status', 'tx_hash'])
      .where('id', 'in', [paidA, expired, older, newest])
      .orderBy('id')
      .execute()
    expect(statuses).toEqual([
      { id: paidA, status: 'PAID', tx_hash: 'a'.repeat(64) },
      { id: expired, status: 'EXPIRED', tx_hash: null },
      { id: older, status: 'EXPIRED', tx_hash: null },
      { id: newest, status: 'OPEN', tx_hash: null },
    ])
    // The database now refuses a second open request, and a hash in another spelling.
    await expect(request('OPEN', 30)).rejects.toThrow()
    await expect(transfer('trc20', `0x${'c'.repeat(64)}`, newest)).rejects.toThrow()
    // wallet:audit reports the transaction credited twice.
    const report = await auditWallets(ctx.db)
    expect(report.problems.map((p) => p.problem)).toEqual(
      expect.arrayContaining([
        `transaction trc20:${'a'.repeat(64)} credited 2 times, at least once as a whole`,
      ]),
    )
    await ctx.db.deleteFrom('usdt_transfers').execute()
    await ctx.db.deleteFrom('usdt_requests').execute()
  })
})

describeEachDatabase('migration 0026: payment methods as rows', (ctx) => {
  it("moves each method's settings to its row, keeps the top-ups, and refuses an unknown method", async () => {
    const migrator = new Migrator({
      db: ctx.db,
      provider: { getMigrations: async () => migrations(ctx.dialect) },
    })
    expect((await migrator.migrateTo('0025_promo_disabled')).error).toBeUndefined()
    const at = new Date().toISOString()
    await sql`delete from payment_settings`.execute(ctx.db)
    await sql`insert into payment_settings (id, usdt_trc20, usdt_bep20, whish_money_text,
      whish_money_text_ar, omt_pay_text, omt_pay_text_ar, usdt_tax, whish_money_tax, omt_pay_tax,
      usdt_on, whish_money_on, omt_pay_on, updated_at)
      values (1, 'T1', null, 'Send by Whish', 'أرسل', 'Pay at OMT', null, 1500000, 2000000,
      3000000, 1, 1, 0, ${at})`.execute(ctx.db)
    const user = await ctx.db
      .selectFrom('users')
      .select('id')
      .where('username', '=', 'demo')
      .executeTakeFirstOrThrow()
    const charge = (name: string) =>
      sql`insert into charging_processes (user_id, name, value, tax, shipping_value, currency,
        status, created_at, updated_at) values (${user.id}, ${name}, 1000000, 0, 1000000, 'USD',
        'WAITING', ${at}, ${at})`.execute(ctx.db)
    await charge('OMT_PAY')

    expect((await migrateToLatest(ctx.db, ctx.dialect))[0]).toBe('0026_payment_methods')
    expect(await paymentSettings(ctx.db)).toMatchObject({
      usdt_trc20: 'T1',
      usdt_bep20: null,
      usdt_on: 1,
      usdt_tax: 1_500_000,
      whish_money_on: 1,
      whish_money_text: 'Send by Whish',
      whish_money_text_ar: 'أرسل',
      whish_money_tax: 2_000_000,
      omt_pay_on: 0,
      omt_pay_text: 'Pay at OMT',
      omt_pay_text_ar: null,
      omt_pay_tax: 3_000_000,
    })
    const names = await ctx.db
      .selectFrom('charging_processes')
      .select('name')
      .where('user_id', '=', user.id)
      .execute()
    expect(names.map((r) => r.name)).toContain('OMT_PAY')
    // A top-up's method is one of the rows: a code's is, a made-up one is not.
    await charge('PROMO_CODE')
    await expect(charge('CASH')).rejects.toThrow()
    await ctx.db.deleteFrom('charging_processes').where('user_id', '=', user.id).execute()
  })
})
