import { sql } from 'kysely'
import { Migrator } from 'kysely/migration'
import * as v from 'valibot'
import { expect, it } from 'vitest'
import { NotificationPageSchema } from '../../src/contract/notifications'
import { migrateToLatest, migrations } from '../db/migrations'
import { runOperator } from '../test/cli'
import { describeEachDatabase } from '../test/context'
import { customer, get, order } from '../test/orders'
import { cancelOrder, completeOrder } from './order-status'
import { approveCharge } from './charging'

/*
 * A notification is said in the language of whoever reads it, whatever the language when it
 * was made; an operator's own words stay as written. What it is about is a subject, never a
 * storefront address.
 */

describeEachDatabase('notifications in the reader’s language', (ctx) => {
  const list = async (token: string, query = '') =>
    v.parse(
      NotificationPageSchema,
      await (await get(ctx.app, `notifications${query}`, token)).json(),
    )

  it('says an order’s, a top-up’s and the wallet’s notifications in either language', async () => {
    // Made while the account was English.
    const buyer = await customer(ctx, { balance: '200' })
    const placed = async () => {
      const res = await order(ctx.app, buyer.token, {
        product_id: '24',
        qty: '10',
        wallet_address: 'TXlanguages',
      })
      return ((await res.json()) as { data: { id: number } }).data.id
    }
    const [done, refused] = [await placed(), await placed()]
    await completeOrder(ctx.db, done, { codes: ['C-1'], now: ctx.clock.now() })
    await cancelOrder(ctx.db, refused, {
      reason: 'Stock épuisé.',
      lbpRate: 89_500,
      now: ctx.clock.now(),
    })
    const { id: charge } = await ctx.db
      .insertInto('charging_processes')
      .values({
        user_id: buyer.user.id,
        name: 'WHISH_MONEY',
        value: 1_234_500_000n,
        shipping_value: 1_234_500_000n,
        currency: 'USD',
        reject_reason: null,
        receipt_file: null,
        promo_code_id: null,
        created_at: ctx.clock.now().toISOString(),
        updated_at: ctx.clock.now().toISOString(),
        decided_at: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    await approveCharge(ctx.db, charge, { rate: 89_500, actor: 'test', now: ctx.clock.now() })
    expect(
      (await runOperator(ctx, 'wallet:credit', buyer.user.username, '5', '--reason', 'Cadeau'))
        .code,
    ).toBe(0)

    const english = await list(buyer.token, '?sort_by=id&sort_value=asc&local=en')
    const arabic = await list(buyer.token, '?sort_by=id&sort_value=asc&local=ar')
    expect(english.data.map((n) => n.title)).toEqual([
      `Order #${done} completed`,
      `Order #${refused} canceled`,
      'Your wallet was credited',
      'Your wallet was topped up',
    ])
    expect(arabic.data.map((n) => n.title)).toEqual([
      `تم تنفيذ الطلب رقم ${done}`,
      `تم إلغاء الطلب رقم ${refused}`,
      'تم شحن محفظتك',
      'تم شحن محفظتك',
    ])
    // What was bought in the reader's language; the operator's reason as written; amounts in
    // the one digit system of both languages.
    expect(arabic.data[0]!.description).toContain('USDT')
    expect(arabic.data[1]!.description).toContain('Stock épuisé')
    expect(arabic.data[2]!.description).toContain('1,234.50 $')
    expect(arabic.data[3]!.description).toContain('Cadeau')
    for (const note of arabic.data)
      expect(note.title + note.description).not.toMatch(/[\u0660-\u0669\u06F0-\u06F9]/)
    expect(arabic.data.map((n) => n.subject)).toEqual([
      { kind: 'order', id: done },
      { kind: 'order', id: refused },
      { kind: 'top-up', id: charge },
      { kind: 'wallet' },
    ])
    expect(JSON.stringify(arabic)).not.toContain('/#/')
  })
})

describeEachDatabase('migration 0014: notifications from before', (ctx) => {
  it('keeps their words as written, names their subject, and rewrites pushes not sent yet', async () => {
    const migrator = new Migrator({
      db: ctx.db,
      provider: { getMigrations: async () => migrations(ctx.dialect) },
    })
    const names = Object.keys(migrations(ctx.dialect))
    const before = names[names.indexOf('0014_notification_messages') - 1]!
    expect((await migrator.migrateTo(before)).error).toBeUndefined()
    // No opening credit: its wallet line has columns from after 0014.
    const buyer = await customer(ctx, { balance: '0' })
    const at = new Date().toISOString()
    const note = (title: string, url: string | null) =>
      sql`insert into notifications (user_id, title, description, url, tag, created_at)
        values (${buyer.user.id}, ${title}, 'As written.', ${url}, null, ${at})`.execute(ctx.db)
    await note('Order #7 canceled', '/#/Orders/7')
    await note('Your top-up was refused', '/#/shipping-payments/3')
    await note('Your wallet was topped up', '/#/wallet')
    await note('Welcome', null)
    const push = (url: string, done: string | null) =>
      sql`insert into push_jobs (user_id, message, attempts, next_at, done_at, created_at)
        values (${buyer.user.id}, ${JSON.stringify({
          notification: { title: 'Order #7 canceled', body: 'x' },
          data: { url, tag: 'order-7' },
        })}, 0, ${at}, ${done}, ${at})`.execute(ctx.db)
    await push('/#/Orders/7', null)
    await push('/#/Orders/7', at)

    await migrateToLatest(ctx.db, ctx.dialect)
    const page = await (
      await get(ctx.app, 'notifications?local=ar&sort_by=id&sort_value=asc', buyer.token)
    ).json()
    const { data } = v.parse(NotificationPageSchema, page)
    expect(data.map((n) => [n.title, n.description, n.subject])).toEqual([
      ['Order #7 canceled', 'As written.', { kind: 'order', id: 7 }],
      ['Your top-up was refused', 'As written.', { kind: 'top-up', id: 3 }],
      ['Your wallet was topped up', 'As written.', { kind: 'wallet' }],
      ['Welcome', 'As written.', null],
    ])
    const jobs = await ctx.db
      .selectFrom('push_jobs')
      .select(['message', 'done_at'])
      .where('user_id', '=', buyer.user.id)
      .orderBy('id')
      .execute()
    expect(JSON.parse(jobs[0]!.message)).toEqual({
      notification: { title: 'Order #7 canceled', body: 'x' },
      data: { kind: 'order', id: '7', tag: 'order-7' },
    })
    // A push already sent stays as it went.
    expect(JSON.parse(jobs[1]!.message).data).toEqual({ url: '/#/Orders/7', tag: 'order-7' })
  })
})
