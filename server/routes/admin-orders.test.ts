import * as v from 'valibot'
import { toMicros } from '../../src/domain/money'
import { expect, it } from 'vitest'
import {
  ConsoleOrderActionReplySchema,
  ConsoleOrderPageSchema,
  ConsoleOrderReplySchema,
} from '../../src/contract/console-orders'
import { OrderReplySchema, PlaceOrderReplySchema } from '../../src/contract/orders'
import { createLocalProvider } from '../adapters/provider-local'
import type { Provider } from '../adapters/provider'
import { createApp } from '../app'
import { backgroundSettled } from '../db/background'
import { runOperator } from '../test/cli'
import { post, read, signedIn } from '../test/console'
import { describeEachDatabase, testPasswords } from '../test/context'
import { balanceOf, customer, get, ledgerOf, order, packageId, twoServers } from '../test/orders'

describeEachDatabase('console: orders', (ctx) => {
  async function placeOne(token: string, fields: Record<string, string> = {}) {
    const card = await packageId(ctx, 27, 'iTunes $5')
    const res = await order(ctx.app, token, { package_id: card, quantity: '1', ...fields })
    expect(res.status, await res.clone().text()).toBe(200)
    return v.parse(PlaceOrderReplySchema, await res.json()).data
  }
  const detail = async (cookie: string, id: number, query = '') => {
    const res = await read(ctx.app, `orders/${id}${query}`, cookie)
    expect(res.status, await res.clone().text()).toBe(200)
    return v.parse(ConsoleOrderReplySchema, await res.json()).data
  }
  const list = async (cookie: string, query: string) => {
    const res = await read(ctx.app, `orders?${query}`, cookie)
    expect(res.status, await res.clone().text()).toBe(200)
    return v.parse(ConsoleOrderPageSchema, await res.json())
  }

  it('finds orders by status, customer, product and the store’s days, a page at a time', async () => {
    const { cookie } = await signedIn(ctx)
    const { token, user } = await customer(ctx)
    const placed = await placeOne(token)
    const mine = await list(cookie, `customer=${user.username.toUpperCase()}`)
    expect(mine.data.map((o) => o.id)).toEqual([placed.id])
    expect(mine.data[0]).toMatchObject({
      status: 'WAITING',
      product_name: 'iTunes Gift Card (US)',
      package_name: 'iTunes $5',
      customer: { id: user.id, username: user.username, phone_number: user.phone_number },
    })
    const byPhone = await list(cookie, `customer=${user.phone_number.slice(-7)}`)
    expect(byPhone.data.map((o) => o.id)).toContain(placed.id)
    expect((await list(cookie, `customer=${user.username}&status=completed`)).total).toBe(0)
    expect((await list(cookie, `customer=${user.username}&product=itunes%20$5`)).total).toBe(1)
    expect((await list(cookie, `customer=${user.username}&product=pubg`)).total).toBe(0)
    // The store's day of the order (Asia/Beirut in tests) holds it; the day after does not.
    const day = mine.data[0]!.date
    expect(
      (await list(cookie, `customer=${user.username}&start_date=${day}&end_date=${day}`)).total,
    ).toBe(1)
    const next = new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10)
    expect((await list(cookie, `customer=${user.username}&start_date=${next}`)).total).toBe(0)
    // Everyone's orders, paged.
    const page = await list(cookie, 'per_page=2&page=1')
    expect(page.data).toHaveLength(2)
    expect(page.total).toBeGreaterThan(2)
    expect(page.data[0]!.id).toBeGreaterThan(page.data[1]!.id)

    const bad = await read(ctx.app, 'orders?status=DONE&start_date=2026-02-31&local=ar', cookie)
    expect(bad.status).toBe(422)
    const problems = (await bad.json()) as { errors: Record<string, string[]> }
    expect(Object.keys(problems.errors).sort()).toEqual(['start_date', 'status'])
    expect(problems.errors.start_date![0]).toContain('YYYY-MM-DD')
  })

  it('completes an order with two codes: the customer sees both and is told, once', async () => {
    const { cookie, account } = await signedIn(ctx)
    const { token, user } = await customer(ctx, { locale: 'ar' })
    const placed = await placeOne(token)
    const before = await detail(cookie, placed.id)
    expect(before).toMatchObject({
      status: 'WAITING',
      debit: { amount: placed.total_price, currency: 'USD' },
      refund: null,
      can_retry: false,
      customer: { username: user.username },
    })
    expect(before.history.map((h) => h.event)).toEqual(['placed'])

    const missing = await post(
      ctx.app,
      `orders/${placed.id}/complete`,
      { expiry: '2027-13-01' },
      cookie,
    )
    expect(missing.status).toBe(422)
    const res = await post(
      ctx.app,
      `orders/${placed.id}/complete`,
      { codes: 'AAAA-1111\n\n  BBBB-2222 \n', note: 'Redeem in the app', expiry: '2027-06-30' },
      cookie,
    )
    expect(res.status, await res.clone().text()).toBe(200)
    expect(v.parse(ConsoleOrderActionReplySchema, await res.json())).toEqual({
      message: `Order #${placed.id} completed: the customer has been told.`,
      data: { id: placed.id, status: 'COMPLETED' },
    })
    const seen = v.parse(
      OrderReplySchema,
      await (await get(ctx.app, `orders/${placed.id}`, token)).json(),
    )
    expect(seen.data.item_codes).toEqual([{ code: 'AAAA-1111' }, { code: 'BBBB-2222' }])
    expect(seen.data).toMatchObject({ accept_note: 'Redeem in the app', expiry_date: '2027-06-30' })
    const notices = JSON.stringify(
      await (await get(ctx.app, 'notifications?local=ar', token)).json(),
    )
    expect(notices).toContain(String(placed.id))

    const after = await detail(cookie, placed.id)
    expect(after.history.map((h) => [h.event, h.actor])).toEqual([
      ['placed', null],
      ['completed', `console:${account.username}`],
      ['customer_notified', null],
    ])
    const audit = await ctx.db
      .selectFrom('audit_log')
      .select(['actor', 'details'])
      .where('action', '=', 'orders.complete')
      .where('user_id', '=', user.id)
      .execute()
    expect(audit).toHaveLength(1)
    expect(JSON.parse(audit[0]!.details)).toEqual({
      order: placed.id,
      codes: 2,
      note: 'Redeem in the app',
      expiry: '2027-06-30',
    })
    // Decided: the CLI and the console both see it.
    const again = await post(ctx.app, `orders/${placed.id}/cancel`, { reason: 'late' }, cookie)
    expect(again.status).toBe(409)
    expect((await runOperator(ctx, 'orders:cancel', String(placed.id), '--reason', 'x')).code).toBe(
      1,
    )
    expect((await post(ctx.app, 'orders/999999999/complete', {}, cookie)).status).toBe(404)
    // A foreign page's form cannot act for the operator.
    const cross = await ctx.app.request(`/api/admin/orders/${placed.id}/complete`, {
      method: 'POST',
      body: new URLSearchParams({ codes: 'X' }),
      headers: { origin: 'https://evil.example', cookie },
    })
    expect(cross.status).toBe(403)
  })

  it('two operators completing and cancelling the same order at once: one outcome, one refund', async () => {
    const first = await signedIn(ctx)
    const second = await signedIn(ctx)
    const { token, user } = await customer(ctx, { balance: '50' })
    const placed = await placeOne(token)
    const afterOrder = await balanceOf(ctx, user.id)
    const { apps, close } = twoServers(ctx)
    let results: Response[]
    try {
      results = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          post(
            apps[i % 2]!,
            `orders/${placed.id}/${i % 4 === 0 ? 'complete' : 'cancel'}`,
            i % 4 === 0 ? { codes: 'ZZZZ-0000' } : { reason: `out of stock ${i}` },
            [first, second][i % 2]!.cookie,
          ),
        ),
      )
    } finally {
      await close()
    }
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409, 409, 409, 409])
    const won = v.parse(
      ConsoleOrderActionReplySchema,
      await results.find((r) => r.status === 200)!.json(),
    ).data.status
    const ledger = await ledgerOf(ctx, user.id)
    const refunds = ledger.logs.filter((l) => l.status === 'Charged')
    expect(refunds).toHaveLength(won === 'CANCELED' ? 1 : 0)
    expect(await balanceOf(ctx, user.id)).toBe(
      won === 'CANCELED' ? afterOrder + refunds[0]!.value : afterOrder,
    )
    const audit = await ctx.db
      .selectFrom('audit_log')
      .select('action')
      .where('user_id', '=', user.id)
      .where('action', 'in', ['orders.complete', 'orders.cancel'])
      .execute()
    expect(audit).toHaveLength(1)
    const shown = await detail(first.cookie, placed.id)
    expect(shown.status).toBe(won)
    expect(shown.refund).toEqual(
      won === 'CANCELED' ? { amount: placed.total_price, currency: 'USD' } : null,
    )
  })

  it('cancels with the reason, refunds once, and retries a refused hand-over once', async () => {
    let refusals = 1
    const provider: Provider = {
      ...createLocalProvider(),
      async placeOrder(o) {
        return refusals-- > 0
          ? { ref: null, status: 'FAILED', detail: 'no stock' }
          : { ref: `P-${o.id}`, status: 'WAITING' }
      },
    }
    const app = createApp({
      db: ctx.db,
      config: ctx.config,
      clock: ctx.clock,
      passwords: testPasswords,
      provider,
    })
    const { cookie } = await signedIn(ctx)
    const { token, user } = await customer(ctx)
    const card = await packageId(ctx, 27, 'iTunes $5')
    const placed = v.parse(
      PlaceOrderReplySchema,
      await (await order(app, token, { package_id: card, quantity: '1' })).json(),
    ).data
    await backgroundSettled(ctx.db)
    expect((await detail(cookie, placed.id)).status).toBe('FAILED')
    expect((await detail(cookie, placed.id)).can_retry).toBe(true)

    const tries = await Promise.all(
      Array.from({ length: 4 }, () => post(app, `orders/${placed.id}/retry`, {}, cookie)),
    )
    expect(tries.map((r) => r.status).sort()).toEqual([200, 409, 409, 409])
    await backgroundSettled(ctx.db)
    const retried = await detail(cookie, placed.id)
    expect(retried).toMatchObject({
      status: 'WAITING',
      provider_ref: `P-${placed.id}`,
      can_retry: false,
    })
    expect(retried.history.map((h) => h.event)).toEqual(['placed', 'hand_over_retried'])

    const blank = await post(
      ctx.app,
      `orders/${placed.id}/cancel?local=ar`,
      { reason: ' ' },
      cookie,
    )
    expect(blank.status).toBe(422)
    const before = await balanceOf(ctx, user.id)
    const res = await post(
      ctx.app,
      `orders/${placed.id}/cancel`,
      { reason: 'Region locked' },
      cookie,
    )
    expect(res.status, await res.clone().text()).toBe(200)
    expect(await balanceOf(ctx, user.id)).toBe(before + toMicros(String(placed.total_price)))
    const seen = v.parse(
      OrderReplySchema,
      await (await get(ctx.app, `orders/${placed.id}`, token)).json(),
    )
    expect(seen.data).toMatchObject({ status: 'CANCELED', refuse_reason: 'Region locked' })
    expect((await post(ctx.app, `orders/${placed.id}/retry`, {}, cookie)).status).toBe(409)
  })
})
