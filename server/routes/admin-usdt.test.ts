import sharp from 'sharp'
import * as v from 'valibot'
import { expect, it } from 'vitest'
import {
  AlertsReplySchema,
  UnmatchedReplySchema,
  UsdtConfirmReplySchema,
  UsdtListReplySchema,
} from '../../src/contract/console-usdt'
import { UsdtPaymentReplySchema } from '../../src/contract/wallet'
import { toMicros } from '../../src/domain/money'
import { createPushOutbox } from '../adapters/push'
import type { PushMessage } from '../services/notifications'
import { deliverPushes } from '../services/push'
import { recordTransfer } from '../services/usdt'
import { postForm } from '../test/accounts'
import { post, read, signedIn } from '../test/console'
import { describeEachDatabase } from '../test/context'
import { balanceOf, customer, twoServers } from '../test/orders'

const TRON = 'TNTYuKfobXw9Qphr49rwuo7uWjvmmUWkcJ'

describeEachDatabase('console USDT and alerts', (ctx) => {
  async function usdtRequest(amount = '10') {
    const buyer = await customer(ctx, { balance: '0' })
    const res = await postForm(
      ctx.app,
      'wallet/request-payment',
      { amount, network: 'trc20' },
      { token: buyer.token },
    )
    expect(res.status, await res.clone().text()).toBe(200)
    return { ...buyer, payment: v.parse(UsdtPaymentReplySchema, await res.json()) }
  }

  const transferOf = (amount: string, hash: string) => ({
    network: 'trc20' as const,
    txHash: hash,
    logIndex: 0,
    from: 'TSenderSenderSenderSenderSenderSen',
    to: TRON,
    amountMicros: toMicros(amount),
    exact: true,
    blockNumber: 1000n,
    confirmations: 25,
    confirmed: true,
    timestamp: ctx.clock.now(),
  })

  it('lists open, paid and expired requests, and transfers with the customers they could be', async () => {
    const { cookie } = await signedIn(ctx)
    const { payment, user } = await usdtRequest('12')
    const list = async (status: string) =>
      v.parse(
        UsdtListReplySchema,
        await (await read(ctx.app, `usdt?status=${status}`, cookie)).json(),
      ).data
    expect((await list('OPEN')).find((r) => r.id === payment.payment_id)).toMatchObject({
      username: user.username,
      unique_amount: payment.unique_amount,
      state: 'OPEN',
    })
    expect((await list('PAID')).some((r) => r.id === payment.payment_id)).toBe(false)
    expect((await read(ctx.app, 'usdt?status=LOST', cookie)).status).toBe(422)

    // The customer sent 12 without the exact fraction: it credits nothing and waits for a person.
    expect(
      await recordTransfer(ctx.db, transferOf('12', 'b'.repeat(64)), {
        rate: 1,
        now: ctx.clock.now(),
      }),
    ).toBe('UNMATCHED')
    const unmatched = v.parse(
      UnmatchedReplySchema,
      await (await read(ctx.app, 'usdt/unmatched', cookie)).json(),
    ).data
    const stray = unmatched.find((t) => t.tx_hash === 'b'.repeat(64))
    expect(stray).toMatchObject({ amount: '12', outcome: 'UNMATCHED' })
    expect(stray!.candidates.map((c) => c.id)).toContain(payment.payment_id)
  })

  it('confirms with a transfer hash once, whoever confirms at the same moment', async () => {
    const { payment, user } = await usdtRequest('20')
    const first = await signedIn(ctx)
    const second = await signedIn(ctx)
    const servers = twoServers(ctx)
    try {
      const hash = `0x${'C'.repeat(64)}`
      const replies = await Promise.all(
        [first.cookie, second.cookie].map((cookie, i) =>
          post(
            servers.apps[i]!,
            `usdt/${payment.payment_id}/confirm`,
            {
              tx_hash: hash,
            },
            cookie,
          ),
        ),
      )
      expect(replies.map((r) => r.status).sort()).toEqual([200, 409])
      const ok = replies.find((r) => r.status === 200)!
      const { data, message } = v.parse(UsdtConfirmReplySchema, await ok.json())
      // Kept in Tron's one spelling: no 0x, lower case.
      expect(data).toMatchObject({ state: 'PAID', tx_hash: 'c'.repeat(64) })
      expect(message).toContain(`#${payment.payment_id}`)
      const net = await balanceOf(ctx, user.id)
      expect(net).toBeGreaterThan(0n)
      expect(net).toBeLessThan(toMicros(payment.unique_amount))
      const credits = await ctx.db
        .selectFrom('charging_processes')
        .where('user_id', '=', user.id)
        .select('id')
        .execute()
      expect(credits).toHaveLength(1)
      const audit = await ctx.db
        .selectFrom('audit_log')
        .selectAll()
        .where('action', '=', 'payments:confirm')
        .where('user_id', '=', user.id)
        .execute()
      expect(audit).toHaveLength(1)
      // Another request cannot be paid with the same transaction, whatever its spelling.
      const other = await usdtRequest('20')
      const reused = await post(
        ctx.app,
        `usdt/${other.payment.payment_id}/confirm?local=ar`,
        {
          tx_hash: 'c'.repeat(64),
        },
        first.cookie,
      )
      expect(reused.status).toBe(409)
      const bad = await post(
        ctx.app,
        `usdt/${other.payment.payment_id}/confirm`,
        {
          tx_hash: 'not a hash',
        },
        first.cookie,
      )
      expect(bad.status).toBe(422)
    } finally {
      await servers.close()
    }
  })

  it('tells the operators of a new receipt: the badge count and a push in their language', async () => {
    const { cookie } = await signedIn(ctx)
    const { cookie: arabic } = await signedIn(ctx, 'owner')
    const counts = async () =>
      v.parse(AlertsReplySchema, await (await read(ctx.app, 'alerts', cookie)).json()).data
    const before = await counts()
    const saved = await post(
      ctx.app,
      'push-token?local=ar',
      {
        fcm_token: 'device-ar',
      },
      arabic,
    )
    expect(saved.status, await saved.clone().text()).toBe(200)
    expect((await post(ctx.app, 'push-token', { fcm_token: 'device-en' }, cookie)).status).toBe(200)

    const buyer = await customer(ctx, { balance: '0' })
    const photo = await sharp({
      create: { width: 20, height: 20, channels: 3, background: '#39c' },
    })
      .png()
      .toBuffer()
    const form = new FormData()
    form.append('name', 'WHISH_MONEY')
    form.append('value', '15')
    form.append('image', new Blob([new Uint8Array(photo)], { type: 'image/png' }), 'r.png')
    const res = await ctx.app.request('/api/charging-processes', {
      method: 'POST',
      body: form,
      headers: { authorization: `Bearer ${buyer.token}` },
    })
    expect(res.status, await res.clone().text()).toBe(200)
    expect(await counts()).toEqual({ ...before, waiting_top_ups: before.waiting_top_ups + 1 })

    await deliverPushes(ctx.db, createPushOutbox(ctx.db), { now: ctx.clock.now() })
    const sent = await ctx.db
      .selectFrom('operator_push_outbox')
      .select(['token', 'message'])
      .where('token', 'in', ['device-ar', 'device-en'])
      .execute()
    const byToken = Object.fromEntries(
      sent.map((s) => [s.token, JSON.parse(s.message) as PushMessage]),
    )
    expect(byToken['device-en']!.notification.title).toBe('New receipt to review')
    expect(byToken['device-en']!.notification.body).toContain(buyer.user.username)
    expect(byToken['device-en']!.data.page).toBe('/admin/top-ups')
    expect(byToken['device-ar']!.notification.title).toBe('إيصال جديد للمراجعة')

    // A signed-out device is told no more.
    expect((await post(ctx.app, 'sign-out', {}, arabic)).status).toBe(200)
    await recordTransfer(ctx.db, transferOf('3.5', 'd'.repeat(64)), {
      rate: 1,
      now: ctx.clock.now(),
    })
    expect((await counts()).unmatched_transfers).toBe(before.unmatched_transfers + 1)
    await deliverPushes(ctx.db, createPushOutbox(ctx.db), { now: ctx.clock.now() })
    const transfers = await ctx.db
      .selectFrom('operator_push_outbox')
      .select(['token', 'message'])
      .where('message', 'like', '%3.5 USDT%')
      .where('token', 'in', ['device-ar', 'device-en'])
      .execute()
    expect(transfers.map((t) => t.token)).toEqual(['device-en'])
    expect((JSON.parse(transfers[0]!.message) as PushMessage).notification.body).toBe(
      '3.5 USDT on TRC20 matches no open payment.',
    )
  })
})
