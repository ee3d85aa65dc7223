import * as v from 'valibot'
import { beforeAll, expect, it } from 'vitest'
import { ValidationErrorReplySchema } from '../../src/contract/common'
import { NotificationPageSchema } from '../../src/contract/notifications'
import { OrderPageSchema } from '../../src/contract/orders'
import { ChargingProcessPageSchema, PaymentLogPageSchema } from '../../src/contract/wallet'
import { notify } from '../services/notifications'
import { describeEachDatabase } from '../test/context'
import { customer, get, order, type Customer } from '../test/orders'

/*
 * The user's lists sorted (sort_by, sort_value) and filtered by state (docs/api.md, Lists):
 * orders, wallet lines, top-ups and notifications, each on its whitelist, with a 422 in the
 * caller's language for anything else.
 */

const MINUTE = 60_000

describeEachDatabase('sorting and filtering the lists', (ctx) => {
  let buyer: Customer
  const orderIds: number[] = []

  beforeAll(async () => {
    buyer = await customer(ctx, { balance: '5000' })
    // Three orders a minute apart, the middle one the largest.
    for (const qty of ['10', '150', '50']) {
      ctx.clock.advance(MINUTE)
      const res = await order(ctx.app, buyer.token, {
        product_id: '24',
        qty,
        wallet_address: 'TXsorting',
      })
      expect(res.status, await res.clone().text()).toBe(200)
      orderIds.push(((await res.json()) as { data: { id: number } }).data.id)
    }
    // Three top-ups, the first the largest; one of each state.
    const at = (minutes: number) => new Date(ctx.clock.now().getTime() + minutes * MINUTE)
    const charges = [
      { value: 30_000_000n, status: 'COMPLETED' as const },
      { value: 5_000_000n, status: 'WAITING' as const },
      { value: 12_000_000n, status: 'CANCELED' as const },
    ]
    for (const [i, charge] of charges.entries()) {
      const when = at(i + 1).toISOString()
      await ctx.db
        .insertInto('charging_processes')
        .values({
          user_id: buyer.user.id,
          name: 'WHISH_MONEY',
          value: charge.value,
          shipping_value: charge.value,
          currency: 'USD',
          status: charge.status,
          reject_reason: null,
          receipt_file: null,
          promo_code_id: null,
          created_at: when,
          updated_at: when,
          decided_at: null,
        })
        .execute()
    }
    // Three notifications a minute apart.
    for (const id of orderIds) {
      ctx.clock.advance(MINUTE)
      await notify(
        ctx.db,
        buyer.user,
        {
          message: 'order_completed',
          values: { id, item: 'Test' },
          subject: { kind: 'order', id },
        },
        ctx.clock.now(),
      )
    }
  })

  const list = async <S extends v.GenericSchema>(schema: S, path: string) => {
    const res = await get(ctx.app, path, buyer.token)
    expect(res.status, await res.clone().text()).toBe(200)
    return v.parse(schema, await res.json())
  }
  const refused = async (path: string) => {
    const res = await get(ctx.app, path, buyer.token)
    expect(res.status).toBe(422)
    return v.parse(ValidationErrorReplySchema, await res.json())
  }

  it('lists orders newest first, or by date, id, total and quantity either way', async () => {
    const ids = async (query: string) =>
      (await list(OrderPageSchema, `orders${query}`)).data.map((o) => o.id)
    const [first, largest, last] = orderIds as [number, number, number]
    expect(await ids('')).toEqual([last, largest, first])
    expect(await ids('?sort_by=date&sort_value=asc')).toEqual([first, largest, last])
    expect(await ids('?sort_by=created_at&sort_value=ASC')).toEqual([first, largest, last])
    expect(await ids('?sort_by=id')).toEqual([last, largest, first])
    expect(await ids('?sort_by=total_price&sort_value=desc')).toEqual([largest, last, first])
    expect(await ids('?sort_by=total_price&sort_value=asc')).toEqual([first, last, largest])
    expect(await ids('?sort_by=quantity&sort_value=asc')).toEqual([first, last, largest])
    // Empty values are no sort at all, as a form that sends every field leaves them.
    expect(await ids('?sort_by=&sort_value=&state=')).toEqual([last, largest, first])
  })

  it('sorts wallet lines by value and date', async () => {
    const lines = await list(PaymentLogPageSchema, 'payment-logs?sort_by=value&sort_value=asc')
    const values = lines.data.map((line) => line.value)
    expect(values).toEqual([...values].sort((a, b) => a - b))
    const oldest = await list(PaymentLogPageSchema, 'payment-logs?sort_by=date&sort_value=asc')
    const newest = await list(PaymentLogPageSchema, 'payment-logs')
    expect(oldest.data.map((l) => l.id)).toEqual(newest.data.map((l) => l.id).reverse())
  })

  it('sorts top-ups by value and filters them by state', async () => {
    const byValue = await list(ChargingProcessPageSchema, 'charging-processes?sort_by=value')
    expect(byValue.data.map((c) => c.value)).toEqual([30, 12, 5])
    const waiting = await list(ChargingProcessPageSchema, 'charging-processes?state=waiting')
    expect(waiting.data.map((c) => c.status)).toEqual(['WAITING'])
    expect(waiting.total).toBe(1)
    const oldest = await list(ChargingProcessPageSchema, 'charging-processes?sort_value=asc')
    expect(oldest.data.map((c) => c.value)).toEqual([30, 5, 12])
  })

  it('sorts notifications oldest first and filters them by read state', async () => {
    const unread = await list(NotificationPageSchema, 'notifications?state=unread&sort_value=asc')
    expect(unread.data.map((n) => n.title)).toEqual(orderIds.map((id) => `Order #${id} completed`))
    // That read them all.
    expect((await list(NotificationPageSchema, 'notifications?state=unread')).total).toBe(0)
    expect((await list(NotificationPageSchema, 'notifications?state=read')).total).toBe(3)
    // Sorted before it is cut into pages: page 2 of one a page is the second oldest.
    const second = await list(
      NotificationPageSchema,
      'notifications?sort_by=id&sort_value=asc&per_page=1&page=2',
    )
    expect(second.data.map((n) => n.title)).toEqual([`Order #${orderIds[1]} completed`])
  })

  it('answers 422 naming what each list takes, in the caller’s language', async () => {
    const badField = await refused('orders?sort_by=password')
    expect(badField.errors.sort_by).toEqual([
      'This list can be sorted by date, id, total_price, quantity only.',
    ])
    const badOrder = await refused('payment-logs?sort_value=sideways')
    expect(badOrder.message).toBe('The sort order must be asc or desc.')
    const both = await refused('charging-processes?sort_by=name&sort_value=up&state=PAID')
    expect(Object.keys(both.errors)).toEqual(['sort_by', 'sort_value', 'state'])
    expect(both.errors.state).toEqual(['The state must be one of WAITING, COMPLETED, CANCELED.'])
    expect((await refused('orders?state=open')).message).toBe(
      'This list has no state to filter by.',
    )
    expect((await refused('notifications?sort_by=title&local=ar')).message).toBe(
      'لا يمكن ترتيب هذه القائمة إلا حسب date, id.',
    )
  })
})
