import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import * as v from 'valibot'
import { expect, it } from 'vitest'
import { OrderReplySchema, PlaceOrderReplySchema } from '../../src/contract/orders'
import { createApp } from '../app'
import { backgroundSettled } from '../db/background'
import { DEMO_STOCK } from '../demo/seed'
import { createLogger } from '../log'
import { runOperator } from '../test/cli'
import { describeEachDatabase, testPasswords } from '../test/context'
import { customer, get, order, packageId, twoServers } from '../test/orders'

/*
 * The code stock (services/stock.ts): the operator's commands, an order completed from stock
 * in its own transaction, and no code ever delivered twice under concurrency.
 */
describeEachDatabase('code stock', (ctx) => {
  const dir = mkdtempSync(join(tmpdir(), 'stock-'))
  let files = 0
  function codesFile(text: string) {
    const file = join(dir, `codes-${++files}.csv`)
    writeFileSync(file, text)
    return file
  }
  const listed = async () =>
    JSON.parse((await runOperator(ctx, 'stock:list', '--json')).stdout) as {
      package_id: number
      available: number
      delivered: number
      expired: number
      withdrawn: number
      low: boolean
    }[]
  const countsOf = async (id: string) => (await listed()).find((c) => c.package_id === Number(id))
  const placed = async (res: Response) => v.parse(PlaceOrderReplySchema, await res.json())
  const detail = async (token: string, id: number) =>
    Promise.resolve(get(ctx.app, `orders/${id}`, token)).then(async (r) => ({
      status: r.status,
      body: r.status === 200 ? v.parse(OrderReplySchema, await r.json()).data : undefined,
    }))

  it('imports a file, refusing and reporting codes repeated in it or already in stock', async () => {
    const card = await packageId(ctx, 30, 'Xbox $10')
    const first = await runOperator(ctx, 'stock:import', card, codesFile('XBOX-1111-AAAA\n'))
    expect(first.code).toBe(0)
    expect(first.stdout).toBe('Imported 1 code for #' + card + ' Xbox Gift Card (US) / Xbox $10.\n')

    const file = codesFile(
      [
        'code,expiry',
        'XBOX-2222-BBBB,2099-12-31',
        'xbox 2222 bbbb', // the same code, written otherwise
        '"XBOX,3333",',
        'xbox-1111-aaaa', // already in stock
        'XBOX-4444,2099-02-30',
        '',
      ].join('\n'),
    )
    const second = await runOperator(ctx, 'stock:import', card, file)
    expect(second.code).toBe(1)
    expect(second.stdout).toBe(
      [
        `Imported 2 codes for #${card} Xbox Gift Card (US) / Xbox $10; 3 lines refused:`,
        '  line 6: expiry "2099-02-30" is not a date like 2027-01-31',
        '  line 3: xbox 2222 bbbb repeats line 2 (refused)',
        '  line 5: xbox-1111-aaaa is already in stock (refused)',
        '',
      ].join('\n'),
    )
    // A code in another package's stock is the same code.
    const other = await packageId(ctx, 30, 'Xbox $25')
    const across = await runOperator(ctx, 'stock:import', other, codesFile('XBOX2222BBBB\n'))
    expect(across.stdout).toContain('line 1: XBOX2222BBBB is already in stock (refused)')
    expect(await countsOf(card)).toMatchObject({ available: 3, delivered: 0, expired: 0 })

    expect((await runOperator(ctx, 'stock:import', '999999', file)).stderr).toBe(
      'No package #999999.\n',
    )
    expect((await runOperator(ctx, 'stock:import', card, join(dir, 'none'))).code).toBe(1)
  })

  it('an order for a stocked package is completed at once with its code, for its owner only', async () => {
    const card = await packageId(ctx, 30, 'Xbox $50')
    await runOperator(ctx, 'stock:import', card, codesFile('XB50-SECRET-0001\nXB50-SECRET-0002\n'))
    const { token, user } = await customer(ctx, { balance: '300' })
    const res = await order(ctx.app, token, { package_id: card, quantity: '2' })
    expect(res.status).toBe(200)
    const reply = await placed(res)
    expect(reply.data.status).toBe('COMPLETED')
    expect(reply.data.item_codes).toEqual([
      { code: 'XB50-SECRET-0001' },
      { code: 'XB50-SECRET-0002' },
    ])
    const shown = await detail(token, reply.data.id)
    expect(shown.body).toMatchObject({ status: 'COMPLETED', item_codes: reply.data.item_codes })
    const list = (await (await get(ctx.app, 'orders', token)).json()) as {
      data: { id: number; item_codes: string }[]
    }
    const listed = list.data.find((o) => o.id === reply.data.id)
    expect(JSON.parse(listed!.item_codes)).toEqual(reply.data.item_codes)
    // Told as any completed order is: the notification and its push.
    const notices = await ctx.db
      .selectFrom('notifications')
      .select(['message', 'subject_id'])
      .where('user_id', '=', user.id)
      .execute()
    expect(notices).toEqual([{ message: 'order_completed', subject_id: reply.data.id }])
    const pushes = await ctx.db
      .selectFrom('push_jobs')
      .select('id')
      .where('user_id', '=', user.id)
      .execute()
    expect(pushes).toHaveLength(1)

    // Another customer does not find it.
    const stranger = await customer(ctx)
    expect((await detail(stranger.token, reply.data.id)).status).toBe(404)

    // Nowhere in the database in clear: not the stock, not the order, not the kept reply.
    const rows = await ctx.db.selectFrom('stock_codes').selectAll().execute()
    const orders = await ctx.db.selectFrom('orders').selectAll().execute()
    const keys = await ctx.db.selectFrom('idempotency_keys').selectAll().execute()
    const dump = JSON.stringify([rows, orders, keys], (_, x: unknown) =>
      typeof x === 'bigint' ? String(x) : x,
    )
    expect(dump).not.toContain('SECRET-0001')
    expect(dump).not.toContain('SECRET0001')
    expect(rows.every((r) => r.code_sealed.startsWith('v1.'))).toBe(true)

    // The stock is empty now: the next order waits for the next way (the provider).
    const next = await placed(await order(ctx.app, token, { package_id: card, quantity: '1' }))
    expect(next.data).toMatchObject({ status: 'WAITING', item_codes: [] })
    expect(await countsOf(card)).toMatchObject({ available: 0, delivered: 2, low: true })
  })

  it('a quantity the stock cannot fill takes nothing from it', async () => {
    const card = await packageId(ctx, 31, 'Steam $10')
    await runOperator(ctx, 'stock:import', card, codesFile('STEAM10-ONE\n'))
    const { token } = await customer(ctx)
    const reply = await placed(await order(ctx.app, token, { package_id: card, quantity: '2' }))
    expect(reply.data).toMatchObject({ status: 'WAITING', item_codes: [] })
    expect(await countsOf(card)).toMatchObject({ available: 1, delivered: 0 })
  })

  it('delivers the first available codes in import order, passing over expired and withdrawn ones', async () => {
    const card = await packageId(ctx, 30, 'Xbox $25')
    await runOperator(
      ctx,
      'stock:import',
      card,
      codesFile('S50-A\nS50-OLD,2001-01-01\nS50-B\nS50-GONE\nS50-C\nS50-D\n'),
    )
    await runOperator(ctx, 'stock:withdraw', card, '--code', 'S50-GONE')
    const { token } = await customer(ctx, { balance: '1000' })
    const first = await placed(await order(ctx.app, token, { package_id: card, quantity: '3' }))
    expect(first.data.item_codes).toEqual([{ code: 'S50-A' }, { code: 'S50-B' }, { code: 'S50-C' }])
    const second = await placed(await order(ctx.app, token, { package_id: card, quantity: '1' }))
    expect(second.data.item_codes).toEqual([{ code: 'S50-D' }])
    expect(await countsOf(card)).toMatchObject({ available: 0, delivered: 4, expired: 1 })
  })

  it('lists expired codes apart and never delivers them', async () => {
    const card = await packageId(ctx, 31, 'Steam $20')
    await runOperator(ctx, 'stock:import', card, codesFile('STEAM20-OLD,2001-01-01\n'))
    expect(await countsOf(card)).toMatchObject({ available: 0, expired: 1 })
    const { token } = await customer(ctx)
    const reply = await placed(await order(ctx.app, token, { package_id: card }))
    expect(reply.data.status).toBe('WAITING')
  })

  it('withdraws codes by count or by code; a withdrawn code is never delivered', async () => {
    const card = await packageId(ctx, 31, 'Steam $50')
    await runOperator(ctx, 'stock:import', card, codesFile('ST50-A\nST50-B\nST50-C\n'))
    const one = await runOperator(ctx, 'stock:withdraw', card, '--code', 'st50 a')
    expect(one.code).toBe(0)
    expect(one.stdout).toContain('Withdrew 1 code from')
    expect(one.stdout).toContain('  ST50-A')
    const again = await runOperator(ctx, 'stock:withdraw', card, '--code', 'ST50-A')
    expect(again).toMatchObject({ code: 1, stderr: 'The code was withdrawn already.\n' })
    const newest = await runOperator(ctx, 'stock:withdraw', card, '1', '--json')
    expect(JSON.parse(newest.stdout)).toEqual({ package_id: Number(card), withdrawn: ['ST50-C'] })
    expect((await runOperator(ctx, 'stock:withdraw', card)).code).toBe(2)

    const { token } = await customer(ctx, { balance: '200' })
    const first = await placed(await order(ctx.app, token, { package_id: card }))
    expect(first.data.item_codes).toEqual([{ code: 'ST50-B' }])
    const second = await placed(await order(ctx.app, token, { package_id: card }))
    expect(second.data.status).toBe('WAITING')
    const delivered = await runOperator(ctx, 'stock:withdraw', card, '--code', 'ST50-B')
    expect(delivered.stderr).toBe('The code was delivered to an order already.\n')
    expect(await countsOf(card)).toMatchObject({ available: 0, delivered: 1, withdrawn: 2 })
  })

  it('tells the operator once when a delivery leaves the stock at its threshold', async () => {
    const card = await packageId(ctx, 32, 'Roblox $10')
    const file = codesFile('RBX10-A\nRBX10-B\nRBX10-C\n')
    expect((await runOperator(ctx, 'stock:import', card, file, '--low-at', '1')).code).toBe(0)
    const logged: string[] = []
    const app = createApp({
      db: ctx.db,
      config: ctx.config,
      clock: ctx.clock,
      passwords: testPasswords,
      logger: createLogger('warn', (line) => logged.push(line)),
    })
    const { token } = await customer(ctx)
    const lowNotices = async () => {
      await backgroundSettled(ctx.db)
      return logged
        .map((line) => JSON.parse(line) as Record<string, unknown>)
        .filter((line) => line.msg === 'code stock low')
    }
    await order(app, token, { package_id: card })
    expect(await lowNotices()).toEqual([])
    await order(app, token, { package_id: card })
    expect(await lowNotices()).toMatchObject([
      { level: 'warn', package: Number(card), available: 1, low_at: 1 },
    ])
    await order(app, token, { package_id: card })
    expect(await lowNotices()).toHaveLength(1)
    expect(await countsOf(card)).toMatchObject({ available: 0, delivered: 3, low: true })
  })

  it('the demo stock delivers its Steam $5 codes', async () => {
    const card = await packageId(ctx, DEMO_STOCK.product, DEMO_STOCK.package)
    expect(await countsOf(card)).toMatchObject({ available: DEMO_STOCK.codes.length })
  })

  it('200 orders at once on a stock of 50: 50 distinct codes, 150 orders wait', async () => {
    const card = await packageId(ctx, 34, 'Amazon $10')
    const codes = Array.from({ length: 50 }, (_, i) => `AMZN-PAR-${String(i).padStart(4, '0')}`)
    expect((await runOperator(ctx, 'stock:import', card, codesFile(codes.join('\n')))).code).toBe(0)
    // On PostgreSQL half the requests go through a second pool, as a second server would.
    const {
      apps: [first, second],
      close,
    } = twoServers(ctx)
    const buyers = await Promise.all(
      Array.from({ length: 20 }, () => customer(ctx, { balance: '200' })),
    )
    let replies: v.InferOutput<typeof PlaceOrderReplySchema>[]
    try {
      const responses = await Promise.all(
        Array.from({ length: 200 }, (_, i) =>
          order(i % 2 === 0 ? first! : second!, buyers[i % 20]!.token, {
            package_id: card,
            quantity: '1',
          }),
        ),
      )
      expect(responses.map((r) => r.status)).toEqual(Array(200).fill(200))
      replies = await Promise.all(responses.map(placed))
    } finally {
      await close()
    }
    const completed = replies.filter((r) => r.data.status === 'COMPLETED')
    const delivered = completed.map((r) => r.data.item_codes[0]!.code)
    expect(completed).toHaveLength(50)
    expect(new Set(delivered).size).toBe(50)
    expect(delivered.sort()).toEqual(codes)
    expect(replies.filter((r) => r.data.status === 'WAITING')).toHaveLength(150)
    // In the database too: 50 codes with one order each, 150 orders handed to the provider.
    const rows = await ctx.db
      .selectFrom('stock_codes')
      .select('order_id')
      .where('package_id', '=', Number(card))
      .execute()
    expect(new Set(rows.map((r) => r.order_id)).size).toBe(50)
    const byStatus = await ctx.db
      .selectFrom('orders')
      .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
      .where('package_id', '=', Number(card))
      .groupBy('status')
      .orderBy('status')
      .execute()
    expect(byStatus.map((r) => [r.status, Number(r.n)])).toEqual([
      ['COMPLETED', 50],
      ['WAITING', 150],
    ])
    expect(await countsOf(card)).toMatchObject({ available: 0, delivered: 50 })
    const audit = await runOperator(ctx, 'wallet:audit')
    expect(audit.code).toBe(0)
  })
})
