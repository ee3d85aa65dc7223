import * as v from 'valibot'
import { expect, it } from 'vitest'
import { OrderReplySchema, PlaceOrderReplySchema } from '../../src/contract/orders'
import { changeCurrency } from '../services/wallet'
import { runOperator } from '../test/cli'
import { describeEachDatabase } from '../test/context'
import { balanceOf, customer, get, ledgerOf, order, packageId } from '../test/orders'

const run = runOperator

describeEachDatabase('operator CLI: orders and wallet', (ctx) => {
  async function placeOne(token: string, quantity = '1') {
    const card = await packageId(ctx, 27, 'iTunes $5')
    const res = await order(ctx.app, token, { package_id: card, quantity })
    return v.parse(PlaceOrderReplySchema, await res.json()).data.id
  }
  const detail = async (token: string, id: number) =>
    v.parse(OrderReplySchema, await (await get(ctx.app, `orders/${id}`, token)).json()).data

  it('orders:list shows orders newest first, by user and status, as JSON or a table', async () => {
    const all = await run(ctx, 'orders:list', '--json')
    expect(all.code).toBe(0)
    const seeded = JSON.parse(all.stdout) as { user: string; status: string; item: string }[]
    expect(seeded.filter((o) => o.user === 'demo').map((o) => o.status)).toEqual([
      'WAITING',
      'CANCELED',
      'COMPLETED',
    ])
    const waiting = await run(ctx, 'orders:list', '--user', 'demo', '--status', 'waiting', '--json')
    expect(JSON.parse(waiting.stdout)).toMatchObject([
      {
        user: 'demo',
        status: 'WAITING',
        item: 'PUBG Mobile UC — 325 UC',
        quantity: 1,
        total: 4.6725,
        currency: 'USD',
        player_number: '5123456789',
        item_codes: [],
      },
    ])
    const text = await run(ctx, 'orders:list', '--user', 'demo')
    const lines = text.stdout.trim().split('\n')
    expect(lines[0]).toMatch(/^id\s+user\s+status\s+item\s+qty\s+total\s+created_at$/)
    expect(lines).toHaveLength(4)
    expect((await run(ctx, 'orders:list', '--user', 'acme')).stdout).toBe('(no orders)\n')

    const nobody = await run(ctx, 'orders:list', '--user', 'nobody', '--json')
    expect(nobody.code).toBe(1)
    expect(JSON.parse(nobody.stderr)).toEqual({ error: 'No user named nobody.' })
    const badStatus = await run(ctx, 'orders:list', '--status', 'DONE')
    expect(badStatus.code).toBe(2)
    expect(badStatus.stderr).toContain(
      '--status must be one of WAITING, COMPLETED, CANCELED, FAILED',
    )
  })

  it('orders:complete stores the codes and the note, notifies, and only once', async () => {
    const { token, user } = await customer(ctx, { locale: 'ar' })
    const id = await placeOne(token)
    const done = await run(
      ctx,
      'orders:complete',
      String(id),
      '--code',
      'AAAA-1111',
      '--code',
      'BBBB-2222',
      '--note',
      'Thanks!',
      '--expiry',
      '2027-01-31',
      '--json',
    )
    expect(done.stderr).toBe('')
    expect(done.code).toBe(0)
    expect(JSON.parse(done.stdout)).toMatchObject({
      id,
      status: 'COMPLETED',
      item_codes: ['AAAA-1111', 'BBBB-2222'],
      accept_note: 'Thanks!',
    })
    expect(await detail(token, id)).toMatchObject({
      status: 'COMPLETED',
      item_codes: [{ code: 'AAAA-1111' }, { code: 'BBBB-2222' }],
      accept_note: 'Thanks!',
      expiry_date: '2027-01-31',
    })
    const notes = await ctx.db
      .selectFrom('notifications')
      .select(['title', 'description'])
      .where('user_id', '=', user.id)
      .execute()
    expect(notes).toEqual([
      {
        title: `تم تنفيذ الطلب رقم ${id}`,
        description: 'اكتمل طلبك: بطاقة آيتونز (أمريكي) — آيتونز 5$.',
      },
    ])

    const again = await run(ctx, 'orders:complete', String(id))
    expect(again.code).toBe(1)
    expect(again.stderr).toBe(
      `Order #${id} is COMPLETED; only WAITING or FAILED orders can be completed.\n`,
    )
    const cancel = await run(ctx, 'orders:cancel', String(id), '--reason', 'too late')
    expect(cancel.code).toBe(1)
    expect(cancel.stderr).toBe(
      `Order #${id} is COMPLETED; only WAITING or FAILED orders can be canceled.\n`,
    )
    expect((await run(ctx, 'orders:complete', '999999')).stderr).toBe('No order #999999.\n')
    expect((await run(ctx, 'orders:complete', 'x1')).code).toBe(2)
    expect((await run(ctx, 'orders:complete', String(id), '--expiry', 'soon')).code).toBe(2)
  })

  it('orders:complete refuses an expiry that is not a real day, and changes nothing', async () => {
    const { token } = await customer(ctx)
    const id = await placeOne(token)
    for (const day of ['2027-13-45', '2027-02-30', '9999-12-31', '2027-1-5', '31/01/2027']) {
      const refused = await run(ctx, 'orders:complete', String(id), '--expiry', day)
      expect(refused.code, day).toBe(2)
      expect(refused.stderr, day).toContain('--expiry must be a date like 2027-01-31')
    }
    expect(await detail(token, id)).toMatchObject({ status: 'WAITING', expiry_date: null })
    expect((await run(ctx, 'orders:complete', String(id), '--expiry', '2028-02-29')).code).toBe(0)
    expect(await detail(token, id)).toMatchObject({
      status: 'COMPLETED',
      expiry_date: '2028-02-29',
    })
  })

  it('orders:cancel refunds exactly once, with a Charged line, also from FAILED', async () => {
    const { token, user } = await customer(ctx, { balance: '20' })
    const first = await placeOne(token, '2')
    const second = await placeOne(token)
    await ctx.db.updateTable('orders').set({ status: 'FAILED' }).where('id', '=', second).execute()
    const before = await balanceOf(ctx, user.id)

    expect((await run(ctx, 'orders:cancel', String(first))).code).toBe(2) // no --reason
    const out = await run(ctx, 'orders:cancel', String(first), '--reason', 'Out of stock', '--json')
    expect(out.code).toBe(0)
    expect(JSON.parse(out.stdout)).toMatchObject({
      id: first,
      status: 'CANCELED',
      refuse_reason: 'Out of stock',
      refund: 10.815,
      refund_currency: 'USD',
      balance: 20 - 5.4075 * 3 + 10.815,
    })
    const text = await run(ctx, 'orders:cancel', String(second), '--reason', 'Refused')
    expect(text.stdout).toMatch(
      new RegExp(`^Order #${second} is CANCELED; 5.4075 USD went back to`),
    )

    const twice = await run(ctx, 'orders:cancel', String(first), '--reason', 'again')
    expect(twice.code).toBe(1)
    expect(await balanceOf(ctx, user.id)).toBe(before + 10_815_000n + 5_407_500n)
    const refunds = (await ledgerOf(ctx, user.id)).logs.filter((l) => l.status === 'Charged')
    expect(refunds.map((l) => [l.name, l.value])).toEqual([
      [`Refund of order #${first}: iTunes Gift Card (US) — iTunes $5`, 10_815_000n],
      [`Refund of order #${second}: iTunes Gift Card (US) — iTunes $5`, 5_407_500n],
    ])
    expect(await detail(token, first)).toMatchObject({
      status: 'CANCELED',
      refuse_reason: 'Out of stock',
    })
  })

  it('refunds in the wallet currency when the wallet switched since the order', async () => {
    const { token, user } = await customer(ctx, { balance: '10' })
    const id = await placeOne(token)
    await changeCurrency(ctx.db, user.id, 'LBP', { rate: 89_500, now: ctx.clock.now() })
    const lbp = await balanceOf(ctx, user.id)
    const out = await run(ctx, 'orders:cancel', String(id), '--reason', 'Refused', '--json')
    // 5.4075 USD at 89,500 LBP per USD.
    expect(JSON.parse(out.stdout)).toMatchObject({ refund: 483_971.25, refund_currency: 'LBP' })
    expect(await balanceOf(ctx, user.id)).toBe(lbp + 483_971_250_000n)
  })

  it('wallet:credit adds money in the wallet currency, logs it and notifies', async () => {
    const { user } = await customer(ctx, { balance: '1.5' })
    const out = await run(
      ctx,
      'wallet:credit',
      user.username,
      '25.25',
      '--reason',
      'Whish Money top-up #8812',
      '--json',
    )
    expect(out.stderr).toBe('')
    expect(JSON.parse(out.stdout)).toEqual({
      username: user.username,
      credited: 25.25,
      currency: 'USD',
      balance: 26.75,
      reason: 'Whish Money top-up #8812',
    })
    expect((await ledgerOf(ctx, user.id)).logs).toEqual([
      {
        status: 'Charged',
        name: 'Whish Money top-up #8812',
        // The operator's words, one text for every language.
        name_ar: null,
        previous_balance: 1_500_000n,
        value: 25_250_000n,
        current_balance: 26_750_000n,
      },
    ])
    const note = await ctx.db
      .selectFrom('notifications')
      .select(['title', 'description'])
      .where('user_id', '=', user.id)
      .executeTakeFirstOrThrow()
    expect(note).toEqual({
      title: 'Your wallet was topped up',
      description: '25.25 $ was added to your wallet: Whish Money top-up #8812',
    })

    const lebanese = await customer(ctx, { currency: 'LBP', balance: '0' })
    const lbp = await run(ctx, 'wallet:credit', lebanese.user.username, '150000', '--reason', 'OMT')
    expect(lbp.stdout).toBe(
      `Credited 150000 LBP to ${lebanese.user.username}: balance 150000 LBP.\n`,
    )
    // Beyond 2^53 micro-units is fine: the ledger is bigint.
    const rich = await run(
      ctx,
      'wallet:credit',
      lebanese.user.username,
      '90000000000',
      '--reason',
      'x',
    )
    expect(rich.code).toBe(0)
    expect(await balanceOf(ctx, lebanese.user.id)).toBe(90_000_150_000_000_000n)

    for (const amount of ['0', '-5', 'ten', '1.0000001']) {
      const bad = await run(ctx, 'wallet:credit', user.username, amount, '--reason', 'x')
      expect(bad.code, amount).toBe(2)
    }
    expect((await run(ctx, 'wallet:credit', user.username, '5')).code).toBe(2)
    const nobody = await run(ctx, 'wallet:credit', 'nobody', '5', '--reason', 'x')
    expect(nobody.code).toBe(1)
    expect(nobody.stderr).toBe('No user named nobody.\n')
    expect(await balanceOf(ctx, user.id)).toBe(26_750_000n)
  })
})
