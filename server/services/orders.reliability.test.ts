import * as v from 'valibot'
import { expect, it } from 'vitest'
import { PlaceOrderReplySchema } from '../../src/contract/orders'
import { fromMicros } from '../../src/domain/money'
import { createDb } from '../db'
import { describeEachDatabase } from '../test/context'
import { balanceOf, customer, ledgerOf, order, packageId, twoServers } from '../test/orders'
import { cancelOrder, completeOrder } from './order-status'
import { placeOrder } from './order-ledger'
import { orderForm, prepareOrder } from './orders'

/*
 * The ledger under load: concurrent orders never overdraw a wallet, a repeated request never
 * pays twice, a cancel never refunds twice. On PostgreSQL half the requests go through a
 * second connection pool, as a second server instance would.
 */
describeEachDatabase('ordering under concurrency', (ctx) => {
  const apps = () => twoServers(ctx)

  it('200 orders at once against a balance for exactly 50: 50 succeed, balance 0', async () => {
    // iTunes $5: 5.25 + 3 % = 5.4075 USD; 50 of them are exactly 270.375.
    const { token, user } = await customer(ctx, { balance: '270.375' })
    const card = await packageId(ctx, 27, 'iTunes $5')
    const {
      apps: [a, b],
      close,
    } = await apps()
    let placedBalances: number[]
    try {
      const replies = await Promise.all(
        Array.from({ length: 200 }, (_, i) =>
          order(i % 2 === 0 ? a! : b!, token, { package_id: card, quantity: '1' }),
        ),
      )
      const statuses = replies.map((r) => r.status)
      expect(statuses.filter((s) => s === 200)).toHaveLength(50)
      expect(statuses.filter((s) => s === 422)).toHaveLength(150)
      for (const r of replies.filter((r) => r.status === 422)) {
        expect(((await r.json()) as { message: string }).message).toBe(
          'Your balance is not enough for this order.',
        )
      }
      // Each placed order answers with the balance its own debit left (on PostgreSQL, orders of
      // one wallet share a statement): 50 different balances, one per debit.
      placedBalances = await Promise.all(
        replies
          .filter((r) => r.status === 200)
          .map(async (r) => v.parse(PlaceOrderReplySchema, await r.json()).balance),
      )
    } finally {
      await close()
    }
    expect(await balanceOf(ctx, user.id)).toBe(0n)
    const ledger = await ledgerOf(ctx, user.id)
    expect(ledger.orders).toHaveLength(50)
    expect(ledger.debits).toHaveLength(50)
    expect(ledger.debitsTotal).toBe(270_375_000n)
    expect(ledger.ordersTotal).toBe(270_375_000n)
    // Each line follows the one before; no balance ever went below zero.
    let running = 270_375_000n
    for (const line of ledger.logs) {
      expect(line.previous_balance).toBe(running)
      expect(line.current_balance).toBe(line.previous_balance - line.value)
      expect(line.current_balance >= 0n).toBe(true)
      running = line.current_balance
    }
    expect(placedBalances.sort((x, y) => x - y)).toEqual(
      ledger.debits.map((line) => fromMicros(line.current_balance)).sort((x, y) => x - y),
    )
    const keys = await ctx.db
      .selectFrom('idempotency_keys')
      .select('order_id')
      .where('user_id', '=', user.id)
      .execute()
    expect(keys).toHaveLength(50)
  })

  it('the same Idempotency-Key 50 times at once: one order, one debit, 50 equal replies', async () => {
    const { token, user } = await customer(ctx, { balance: '100' })
    const card = await packageId(ctx, 27, 'iTunes $5')
    const {
      apps: [a, b],
      close,
    } = await apps()
    let bodies: unknown[]
    try {
      const replies = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          order(i % 2 === 0 ? a! : b!, token, { package_id: card }, { key: 'one-tap' }),
        ),
      )
      expect(replies.map((r) => r.status)).toEqual(Array(50).fill(200))
      bodies = await Promise.all(replies.map((r) => r.json()))
    } finally {
      await close()
    }
    for (const body of bodies) expect(body).toEqual(bodies[0])
    const reply = v.parse(PlaceOrderReplySchema, bodies[0])
    expect(reply.balance).toBe(94.5925)
    expect(await balanceOf(ctx, user.id)).toBe(94_592_500n)
    const ledger = await ledgerOf(ctx, user.id)
    expect(ledger.orders.map((o) => o.id)).toEqual([reply.data.id])
    expect(ledger.debits).toHaveLength(1)
  })

  it('orders from many wallets at once: each gets its own answer, balance and line', async () => {
    // On PostgreSQL the orders of one moment go in one statement (services/order-ledger.ts): a reply
    // must carry its own wallet's balance, a refusal or a repeat must not undo the others.
    const card = await packageId(ctx, 27, 'iTunes $5')
    const many = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        customer(ctx, { balance: String(10 + i), locale: i % 2 === 0 ? 'en' : 'ar' }),
      ),
    )
    const short = await customer(ctx, { balance: '1' })
    const repeat = await customer(ctx, { balance: '50' })
    const {
      apps: [a, b],
      close,
    } = await apps()
    const first = await order(a!, repeat.token, { package_id: card }, { key: 'first-tap' })
    expect(first.status).toBe(200)
    const firstBody: unknown = await first.json()
    let bodies: unknown[]
    let statuses: number[]
    try {
      const replies = await Promise.all([
        ...many.map((c, i) => order(i % 2 === 0 ? a! : b!, c.token, { package_id: card })),
        order(a!, short.token, { package_id: card }),
        order(b!, repeat.token, { package_id: card }, { key: 'first-tap' }),
        order(a!, repeat.token, { package_id: card }),
      ])
      statuses = replies.map((r) => r.status)
      bodies = await Promise.all(replies.map((r) => r.json()))
    } finally {
      await close()
    }
    expect(statuses).toEqual([...Array<number>(24).fill(200), 422, 200, 200])
    const placed = bodies.slice(0, 24).map((body) => v.parse(PlaceOrderReplySchema, body))
    // 5.4075 USD an order: each reply has its own wallet's balance.
    expect(placed.map((r) => r.balance)).toEqual(
      many.map((_, i) => fromMicros(BigInt(10 + i) * 1_000_000n - 5_407_500n)),
    )
    expect(new Set(placed.map((r) => r.data.id)).size).toBe(24)
    expect((bodies[24] as { message: string }).message).toBe(
      'Your balance is not enough for this order.',
    )
    expect(bodies[25]).toEqual(firstBody)
    expect(v.parse(PlaceOrderReplySchema, bodies[26]).balance).toBe(39.185)

    for (const [i, c] of many.entries()) {
      const ledger = await ledgerOf(ctx, c.user.id)
      expect(ledger.orders.map((o) => o.id)).toEqual([placed[i]!.data.id])
      expect(ledger.debits).toHaveLength(1)
      const [line] = ledger.debits
      expect(line!.previous_balance).toBe(BigInt(10 + i) * 1_000_000n)
      expect(line!.current_balance).toBe(BigInt(10 + i) * 1_000_000n - 5_407_500n)
      // The line is named in each language.
      expect(line!.name).toMatch(new RegExp(`^Order #${placed[i]!.data.id}: `))
      expect(line!.name_ar).toMatch(new RegExp(`^الطلب رقم ${placed[i]!.data.id}: `))
    }
    expect(await balanceOf(ctx, short.user.id)).toBe(1_000_000n)
    expect((await ledgerOf(ctx, short.user.id)).orders).toHaveLength(0)
    expect(await balanceOf(ctx, repeat.user.id)).toBe(50_000_000n - 2n * 5_407_500n)
    expect((await ledgerOf(ctx, repeat.user.id)).debits).toHaveLength(2)
  })

  it('an order the database refuses fails alone; the others of the moment are placed', async () => {
    const card = await packageId(ctx, 27, 'iTunes $5')
    const buyers = await Promise.all([customer(ctx), customer(ctx), customer(ctx)])
    const prepared = await Promise.all(
      buyers.map(({ user }) =>
        prepareOrder(ctx.db, user, orderForm({ package_id: card }), {
          locale: 'en',
          lbpRate: ctx.config.lbpRate,
        }),
      ),
    )
    // The second breaks a constraint of the orders table (quantity > 0).
    prepared[1] = { ...prepared[1]!, quantity: 0 }
    const wire = { locale: 'en' as const, timeZone: ctx.config.storeTimeZone }
    const results = await Promise.allSettled(
      buyers.map(({ user }, i) =>
        placeOrder(ctx.db, user, prepared[i]!, {
          key: `constraint-${i}`,
          requestHash: 'h',
          wire,
          now: ctx.clock.now(),
        }),
      ),
    )
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled'])
    for (const i of [0, 2]) {
      expect(await balanceOf(ctx, buyers[i]!.user.id)).toBe(100_000_000n - 5_407_500n)
      expect((await ledgerOf(ctx, buyers[i]!.user.id)).orders).toHaveLength(1)
    }
    expect(await balanceOf(ctx, buyers[1]!.user.id)).toBe(100_000_000n)
    expect((await ledgerOf(ctx, buyers[1]!.user.id)).logs).toHaveLength(0)
  })

  it('two cancels at once refund once; a complete racing a cancel leaves one outcome', async () => {
    const { token, user } = await customer(ctx, { balance: '20' })
    const card = await packageId(ctx, 27, 'iTunes $5')
    const ids: number[] = []
    for (let i = 0; i < 2; i++) {
      const res = await order(ctx.app, token, { package_id: card })
      ids.push(v.parse(PlaceOrderReplySchema, await res.json()).data.id)
    }
    const afterOrders = await balanceOf(ctx, user.id)
    const other = ctx.dialect === 'postgres' ? createDb(ctx.config) : undefined
    const dbB = other?.db ?? ctx.db
    const now = ctx.clock.now()
    try {
      const cancels = await Promise.all([
        cancelOrder(ctx.db, ids[0]!, { reason: 'first', lbpRate: 89_500, now }),
        cancelOrder(dbB, ids[0]!, { reason: 'second', lbpRate: 89_500, now }),
      ])
      expect(cancels.filter((c) => c.changed)).toHaveLength(1)

      const race = await Promise.all([
        completeOrder(ctx.db, ids[1]!, { codes: ['X'], now }),
        cancelOrder(dbB, ids[1]!, { reason: 'late', lbpRate: 89_500, now }),
      ])
      expect(race.filter((r) => r.changed)).toHaveLength(1)
    } finally {
      await other?.destroy()
    }
    const ledger = await ledgerOf(ctx, user.id)
    const refunds = ledger.logs.filter((l) => l.status === 'Charged')
    const canceled = ledger.orders.filter((o) => o.status === 'CANCELED')
    expect(refunds).toHaveLength(canceled.length)
    expect(await balanceOf(ctx, user.id)).toBe(afterOrders + BigInt(canceled.length) * 5_407_500n)
    const notifications = await ctx.db
      .selectFrom('notifications')
      .select('id')
      .where('user_id', '=', user.id)
      .execute()
    expect(notifications).toHaveLength(2)
  })
})
