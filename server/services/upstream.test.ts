import * as v from 'valibot'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { PlaceOrderReplySchema } from '../../src/contract/orders'
import { createDb, type Db } from '../db'
import type { Database } from '../db/schema'
import type { Kysely } from 'kysely'
import { runOperator } from '../test/cli'
import { describeEachDatabase } from '../test/context'
import { startFakePanel, type FakePanel } from '../test/fake-panel'
import { balanceOf, customer, OPENING_LINE, order, packageId, type Customer } from '../test/orders'
import { placeUpstreamOrders } from './upstream'
import { addPanel, mapPackage, retryDelayMs } from './upstream-panels'
import { pollUpstreamOrders } from './upstream-status'

/*
 * Upstream panels (services/upstream.ts) against a fake panel over real HTTP: the operator's
 * commands, an order placed once however many placers run, the status mapping (Partial's
 * refund once, even seen twice by two pollers), a refused add left for the operator with the
 * reason, and timeouts never sent again.
 */
describeEachDatabase('upstream panels', (ctx) => {
  let panel: FakePanel
  let other: Db | undefined
  /** A second database handle (a second server's pool on PostgreSQL). */
  let second: Kysely<Database>
  let pkg: string
  let panelCount = 0

  beforeAll(async () => {
    panel = await startFakePanel()
    other = ctx.dialect === 'postgres' ? createDb(ctx.config) : undefined
    second = other?.db ?? ctx.db
    pkg = await packageId(ctx, 27, 'iTunes $5')
  })
  afterAll(async () => {
    await panel.close()
    await other?.destroy()
  })

  const settings = (timeoutMs = 2000) => ({
    tokenSecret: ctx.config.tokenSecret,
    timeoutMs,
    lbpRate: ctx.config.lbpRate,
  })
  const round = (at = ctx.clock.now(), db = ctx.db, timeoutMs?: number) =>
    placeUpstreamOrders(db, { ...settings(timeoutMs), now: at })
  const poll = (db = ctx.db) => pollUpstreamOrders(db, { ...settings(), now: ctx.clock.now() })

  /** A new panel (the fake one, under a new name) with `pkg` mapped to its service 101. */
  async function mapped(url = panel.url) {
    const name = `fake${++panelCount}`
    const added = await runOperator(ctx, 'upstream:add', name, url, '--key', panel.key)
    if (url === panel.url) expect(added.stderr).toBe('')
    if (added.code !== 0) {
      // A panel that cannot be reached is refused by upstream:add: written as it would be.
      const id = await addPanel(ctx.db, undefined, { name, url, key: panel.key }, ctx.clock.now())
      await mapPackage(
        ctx.db,
        { packageId: Number(pkg), panelId: id, service: '101' },
        ctx.clock.now(),
      )
      return name
    }
    expect((await runOperator(ctx, 'upstream:map', pkg, name, '101')).code).toBe(0)
    return name
  }

  async function buy(buyer: Customer, quantity = 1) {
    const res = await order(ctx.app, buyer.token, { package_id: pkg, quantity: String(quantity) })
    expect(res.status, await res.clone().text()).toBe(200)
    return v.parse(PlaceOrderReplySchema, await res.json()).data
  }

  const orderRow = (id: number) =>
    ctx.db.selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirstOrThrow()
  const attempt = (id: number) =>
    ctx.db.selectFrom('upstream_orders').selectAll().where('order_id', '=', id).executeTakeFirst()

  it('adds a panel after its balance answers, lists its services, maps a package to one it lists', async () => {
    const refused = await runOperator(ctx, 'upstream:add', 'badkey', panel.url, '--key', 'wrong')
    expect(refused.code).toBe(1)
    expect(refused.stderr).toBe('badkey: refused: Invalid API key\n')

    const added = await runOperator(ctx, 'upstream:add', 'main', panel.url, '--key', panel.key)
    expect(added.stdout).toBe(`Added main (${panel.url}); balance 250.50 USD.\n`)
    // The key is kept sealed, never in clear.
    const row = await ctx.db
      .selectFrom('upstream_panels')
      .select('key_sealed')
      .where('name', '=', 'main')
      .executeTakeFirstOrThrow()
    expect(row.key_sealed).not.toContain(panel.key)

    const services = await runOperator(ctx, 'upstream:services', 'main', '--json')
    expect(JSON.parse(services.stdout)).toEqual([
      {
        service: '101',
        name: 'Gift card 5 USD',
        category: 'Cards',
        rate: '4.9000',
        min: '1',
        max: '100',
      },
      {
        service: '102',
        name: 'Followers',
        category: 'Social',
        rate: '0.9000',
        min: '10',
        max: '10000',
      },
    ])
    const unknown = await runOperator(ctx, 'upstream:map', pkg, 'main', '999')
    expect(unknown.stderr).toBe('main lists no service 999.\n')
    const map = await runOperator(ctx, 'upstream:map', pkg, 'main', '101')
    expect(map.stdout).toContain('go to main service 101 (Gift card 5 USD, rate 4.9000)')
    const list = JSON.parse((await runOperator(ctx, 'upstream:list', '--json')).stdout) as {
      panels: { name: string; balance: string }[]
      packages: { package_id: number; chain: string[] }[]
    }
    expect(list.panels).toContainEqual({ name: 'main', url: panel.url, balance: '250.50 USD' })
    expect(list.packages.find((p) => p.package_id === Number(pkg))?.chain).toEqual([
      'main service 101',
      'by hand',
    ])
  })

  it('places a paid order once with add as a form post, with two placers at once', async () => {
    const name = await mapped()
    const buyer = await customer(ctx)
    const placed = await buy(buyer, 2)
    // The customer's request only paid for it: nothing was sent, nor handed to the provider.
    expect(panel.adds().filter((a) => a.quantity === '2')).toEqual([])
    expect((await orderRow(placed.id)).provider_ref).toBeNull()

    const before = panel.adds().length
    await Promise.all([round(), round(ctx.clock.now(), second), round()])
    const sent = panel.adds().slice(before)
    expect(sent).toEqual([{ key: panel.key, action: 'add', service: '101', quantity: '2' }])
    const row = await attempt(placed.id)
    expect(row).toMatchObject({ state: 'placed', attempts: 1, service: '101' })
    expect(row?.upstream_id).toMatch(/^\d+$/)
    // Later rounds send nothing more.
    await round()
    expect(panel.adds().length).toBe(before + 1)
    // A second attempt row for the order is refused by the database itself.
    await expect(
      ctx.db
        .insertInto('upstream_orders')
        .values({
          order_id: placed.id,
          panel_id: 1,
          service: '101',
          state: 'sending',
          attempts: 1,
          created_at: '2026-01-01T00:00:00.000Z',
          updated_at: '2026-01-01T00:00:00.000Z',
        })
        .execute(),
    ).rejects.toThrow()
    expect(name).toMatch(/^fake/)
  })

  it('maps Completed, Canceled (refunded once), In progress (waits) and Partial (the remains refunded once)', async () => {
    await mapped()
    const buyer = await customer(ctx, { balance: '100' })
    const start = await balanceOf(ctx, buyer.user.id)
    const done = await buy(buyer)
    const canceled = await buy(buyer)
    const waiting = await buy(buyer)
    const partial = await buy(buyer, 4)
    await round()
    const theirs = async (id: number) => (await attempt(id))!.upstream_id!
    const paid = async (id: number) => (await orderRow(id)).total_price
    const totals = await Promise.all([done, canceled, waiting, partial].map((o) => paid(o.id)))
    expect(await balanceOf(ctx, buyer.user.id)).toBe(start - totals.reduce((a, b) => a + b, 0n))

    const status = (s: string, remains: string) => ({
      charge: '1.00',
      start_count: '120',
      status: s,
      remains,
      currency: 'USD',
    })
    panel.statuses.set(await theirs(done.id), status('Completed', '0'))
    panel.statuses.set(await theirs(canceled.id), status('Canceled', '1'))
    panel.statuses.set(await theirs(waiting.id), status('In progress', '1'))
    panel.statuses.set(await theirs(partial.id), status('Partial', '1'))
    const polls = panel.calls.length
    // Two pollers at once, twice: every answer applied once.
    await Promise.all([poll(), poll(second)])
    await Promise.all([poll(), poll(second)])
    // The four placed orders were asked about in one call (orders=a,b,c,d).
    const ids = await Promise.all([done, canceled, waiting, partial].map((o) => theirs(o.id)))
    const asked = panel.calls.slice(polls).filter((c) => c.action === 'status')
    expect(asked.some((c) => ids.every((id) => c.orders?.split(',').includes(id)))).toBe(true)

    expect((await orderRow(done.id)).status).toBe('COMPLETED')
    expect((await orderRow(canceled.id)).status).toBe('CANCELED')
    expect((await orderRow(waiting.id)).status).toBe('WAITING')
    expect(await attempt(waiting.id)).toMatchObject({
      state: 'placed',
      upstream_status: 'In progress',
      start_count: '120',
      remains: '1',
    })
    const partialRow = await orderRow(partial.id)
    expect(partialRow.status).toBe('COMPLETED')
    expect(partialRow.accept_note).toBe('Delivered 3 of 4; the rest was refunded.')
    // One of four undelivered: a quarter of its price back, once; the canceled one whole.
    const quarter = totals[3]! / 4n
    expect(await balanceOf(ctx, buyer.user.id)).toBe(
      start - totals[0]! - totals[2]! - totals[3]! + quarter,
    )
    const refunds = await ctx.db
      .selectFrom('wallet_logs')
      .select(['name', 'value'])
      .where('user_id', '=', buyer.user.id)
      .where('status', '=', 'Charged')
      .where('name', '!=', OPENING_LINE)
      .orderBy('id')
      .execute()
    expect(refunds).toEqual([
      {
        name: `Refund of order #${canceled.id}: iTunes Gift Card (US) — iTunes $5`,
        value: totals[1],
      },
      {
        name: `Refund of 1 undelivered of order #${partial.id}: iTunes Gift Card (US) — iTunes $5`,
        value: quarter,
      },
    ])
    const notices = await ctx.db
      .selectFrom('notifications')
      .select(['message', 'subject_id'])
      .where('user_id', '=', buyer.user.id)
      .orderBy('id')
      .execute()
    expect(notices.map((n) => [n.message, n.subject_id])).toEqual(
      expect.arrayContaining([
        ['order_completed', done.id],
        ['order_canceled', canceled.id],
        ['order_partial', partial.id],
      ]),
    )
    expect(notices).toHaveLength(3)
    // The database keeps the Partial's refund to one row per order.
    const partials = await ctx.db
      .selectFrom('order_partials')
      .selectAll()
      .where('order_id', '=', partial.id)
      .execute()
    expect(partials).toMatchObject([{ remains: 1, amount: quarter }])
    expect(await attempt(partial.id)).toMatchObject({ state: 'closed', upstream_status: 'Partial' })
  })

  it('leaves a refused add for the operator with the reason, and sends it again when told', async () => {
    await mapped()
    const buyer = await customer(ctx)
    const start = await balanceOf(ctx, buyer.user.id)
    panel.onAdd = () => ({ error: 'Not enough funds on balance' })
    const placed = await buy(buyer)
    try {
      await round()
    } finally {
      panel.onAdd = () => ({ order: 90000 + placed.id })
    }
    expect(await attempt(placed.id)).toMatchObject({
      state: 'refused',
      reason: 'Not enough funds on balance',
    })
    // Kept, paid, shown to the customer as waiting; FAILED for the operator.
    expect((await orderRow(placed.id)).status).toBe('FAILED')
    expect(await balanceOf(ctx, buyer.user.id)).toBe(
      start - (await orderRow(placed.id)).total_price,
    )
    const attention = await runOperator(ctx, 'upstream:orders', '--attention')
    expect(attention.stdout).toMatch(
      new RegExp(`${placed.id} .*FAILED .*refused .*Not enough funds on balance`),
    )
    // Not sent again by itself.
    const sent = panel.adds().length
    await round()
    expect(panel.adds().length).toBe(sent)

    const resolved = await runOperator(ctx, 'upstream:resolve', String(placed.id), '--send')
    expect(resolved.stdout).toBe(`Order #${placed.id}: sent again on the next round.\n`)
    await round()
    expect(await attempt(placed.id)).toMatchObject({
      state: 'placed',
      upstream_id: String(90000 + placed.id),
    })
    expect((await orderRow(placed.id)).status).toBe('WAITING')
  })

  it('never sends again an add that timed out: its outcome is the operator’s to say', async () => {
    await mapped()
    const buyer = await customer(ctx)
    panel.onAdd = () => 'hang'
    const placed = await buy(buyer)
    try {
      await round(ctx.clock.now(), ctx.db, 300)
    } finally {
      panel.onAdd = () => ({ order: 70000 + placed.id })
    }
    expect(await attempt(placed.id)).toMatchObject({
      state: 'unknown',
      reason: 'no answer within 300 ms',
    })
    const sent = panel.adds().length
    await round(new Date(ctx.clock.now().getTime() + 3600_000))
    expect(panel.adds().length).toBe(sent)
    expect((await orderRow(placed.id)).status).toBe('WAITING')

    // The operator found it at the panel as 4242: it is followed from now on.
    const resolved = await runOperator(
      ctx,
      'upstream:resolve',
      String(placed.id),
      '--placed',
      '4242',
    )
    expect(resolved.code).toBe(0)
    panel.statuses.set('4242', {
      charge: '5',
      start_count: '0',
      status: 'Completed',
      remains: '0',
      currency: 'USD',
    })
    await poll()
    expect((await orderRow(placed.id)).status).toBe('COMPLETED')
  })

  it('tries again later, with growing waits, a panel that cannot be reached', async () => {
    // Nothing listens on the fake panel's port once it is closed.
    const gone = await startFakePanel()
    const url = gone.url
    await gone.close()
    await mapped(url)
    const buyer = await customer(ctx)
    const placed = await buy(buyer)
    const t0 = ctx.clock.now().getTime()
    await round(new Date(t0))
    const first = await attempt(placed.id)
    expect(first).toMatchObject({ state: 'retry', attempts: 1 })
    expect(first?.reason).toMatch(/could not be reached \(ECONNREFUSED\)/)
    expect(first?.next_at).toBe(new Date(t0 + retryDelayMs(1)).toISOString())
    // Not before its time; then again, with a longer wait.
    await round(new Date(t0 + 1000))
    expect(await attempt(placed.id)).toMatchObject({ attempts: 1 })
    await round(new Date(t0 + retryDelayMs(1)))
    expect(await attempt(placed.id)).toMatchObject({
      state: 'retry',
      attempts: 2,
      next_at: new Date(t0 + retryDelayMs(1) + retryDelayMs(2)).toISOString(),
    })
    expect(retryDelayMs(2)).toBe(2 * retryDelayMs(1))
  })
})
