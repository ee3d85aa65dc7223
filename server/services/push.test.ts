import * as v from 'valibot'
import { expect, it } from 'vitest'
import { NotificationPageSchema, PushConfigReplySchema } from '../../src/contract/notifications'
import { createPushOutbox, type PushResult, type PushSender } from '../adapters/push'
import { createApp } from '../app'
import { postForm } from '../test/accounts'
import { describeEachDatabase, testPasswords, type TestContext } from '../test/context'
import { customer, get, order, packageId } from '../test/orders'
import { completeOrder, cancelOrder } from './order-status'
import type { PushMessage } from './notifications'
import { deliverPushes } from './push'
import { createSession, setPushToken } from './sessions'

/** A push sender that remembers what it was asked to send, and answers as told. */
function recorder(answer: (token: string) => PushResult = () => 'sent') {
  const sent: { token: string; message: PushMessage; userId: number }[] = []
  const sender: PushSender = {
    kind: 'outbox',
    async send(token, message, to) {
      sent.push({ token, message, userId: 'userId' in to ? to.userId : -1 })
      return answer(token)
    },
  }
  return { sender, sent }
}

describeEachDatabase('notifications and push', (ctx) => {
  /** A customer with an order placed, and sessions on two devices with push tokens. */
  async function withOrder(ctx: TestContext) {
    const buyer = await customer(ctx, { balance: '100' })
    const now = ctx.clock.now()
    const phone = await createSession(ctx.db, buyer.user.id, {
      fcmToken: `phone-${buyer.user.id}`,
      now,
    })
    const laptop = await createSession(ctx.db, buyer.user.id, { fcmToken: null, now })
    await setPushToken(ctx.db, await sessionId(laptop), `laptop-${buyer.user.id}`, now)
    const card = await packageId(ctx, 27, 'iTunes $5')
    const res = await order(ctx.app, buyer.token, { package_id: card })
    const { data } = (await res.json()) as { data: { id: number } }
    return { ...buyer, orderId: data.id, phone }
  }
  const sessionId = async (token: string) => {
    const { createHash } = await import('node:crypto')
    const row = await ctx.db
      .selectFrom('sessions')
      .select('id')
      .where('token_hash', '=', createHash('sha256').update(token).digest('hex'))
      .executeTakeFirstOrThrow()
    return row.id
  }
  const drain = () =>
    deliverPushes(
      ctx.db,
      { kind: 'none', send: async () => 'sent' },
      { now: new Date(Date.now() + 3600_000) },
    )

  it('sends one push per device for each status change, in the customer language, to the order', async () => {
    await drain()
    const buyer = await withOrder(ctx)
    await ctx.db
      .updateTable('users')
      .set({ locale: 'ar' })
      .where('id', '=', buyer.user.id)
      .execute()
    const { sender, sent } = recorder()
    await completeOrder(ctx.db, buyer.orderId, { codes: ['X-1'], now: ctx.clock.now() })
    expect(await deliverPushes(ctx.db, sender, { now: new Date() })).toBe(1)
    const mine = sent.filter((s) => s.userId === buyer.user.id)
    expect(mine.map((s) => s.token).sort()).toEqual([
      `laptop-${buyer.user.id}`,
      `phone-${buyer.user.id}`,
    ])
    expect(mine[0]!.message).toMatchObject({
      notification: { title: expect.stringMatching(/[\u0600-\u06FF]/) },
      data: { kind: 'order', id: String(buyer.orderId), tag: `order-${buyer.orderId}` },
    })
    // What it is about, never a page of the storefront.
    expect(JSON.stringify(mine[0]!.message)).not.toContain('/#/')
    // Sent once: a second round has nothing to send.
    expect(await deliverPushes(ctx.db, sender, { now: new Date() })).toBe(0)
    const notes = await ctx.db
      .selectFrom('notifications')
      .select(['subject_kind', 'subject_id'])
      .where('user_id', '=', buyer.user.id)
      .execute()
    expect(notes).toContainEqual({ subject_kind: 'order', subject_id: buyer.orderId })
  })

  it('forgets a token FCM says is gone, and retries a failing send a bounded number of times', async () => {
    await drain()
    const buyer = await withOrder(ctx)
    const gone = recorder((token) => (token.startsWith('phone') ? 'unregistered' : 'sent'))
    await completeOrder(ctx.db, buyer.orderId, { now: ctx.clock.now() })
    expect(await deliverPushes(ctx.db, gone.sender, { now: new Date() })).toBe(1)
    const tokens = await ctx.db
      .selectFrom('sessions')
      .select('fcm_token')
      .where('user_id', '=', buyer.user.id)
      .execute()
    expect(tokens.map((t) => t.fcm_token).filter(Boolean)).toEqual([`laptop-${buyer.user.id}`])

    // FCM down: the change is made at once; the push waits and tries again, then gives up.
    const second = await withOrder(ctx)
    const failing = recorder(() => 'failed')
    const changed = await cancelOrder(ctx.db, second.orderId, {
      reason: 'Out of stock',
      lbpRate: 89_500,
      now: ctx.clock.now(),
    })
    expect(changed.changed).toBe(true)
    let at = Date.now()
    let rounds = 0
    while (
      (await deliverPushes(ctx.db, failing.sender, { now: new Date(at) })) === 0 &&
      rounds < 20
    ) {
      at += 3 * 3600_000
      rounds++
    }
    expect(rounds).toBe(5) // six attempts in all, then it is given up
  })

  it('lists, marks read and deletes only the customer own notifications', async () => {
    const a = await withOrder(ctx)
    const b = await withOrder(ctx)
    await completeOrder(ctx.db, a.orderId, { now: ctx.clock.now() })
    await cancelOrder(ctx.db, b.orderId, { reason: 'x', lbpRate: 89_500, now: ctx.clock.now() })
    const countOf = async (token: string) =>
      (
        (await (await get(ctx.app, 'profile', token)).json()) as {
          data: { new_notifications_count: number }
        }
      ).data.new_notifications_count
    expect(await countOf(a.token)).toBe(1)
    const popup = v.parse(
      NotificationPageSchema,
      await (await get(ctx.app, 'notifications?unread=1&per_page=2', a.token)).json(),
    )
    expect(popup.data).toHaveLength(1)
    expect(popup.data[0]).toMatchObject({
      subject: { kind: 'order', id: a.orderId },
      read: false,
    })
    expect(popup.unread).toBe(0)
    expect(await countOf(a.token)).toBe(0)
    const list = v.parse(
      NotificationPageSchema,
      await (await get(ctx.app, 'notifications', a.token)).json(),
    )
    expect(list.data.every((n) => n.read)).toBe(true)
    const theirs = v.parse(
      NotificationPageSchema,
      await (await get(ctx.app, 'notifications', b.token)).json(),
    )
    expect(theirs.data.map((n) => n.id)).not.toContain(list.data[0]!.id)

    const del = (id: number, token: string, locale = 'en') =>
      ctx.app.request(`/api/notifications/${id}?local=${locale}`, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${token}` },
      })
    const notMine = await del(list.data[0]!.id, b.token)
    expect(notMine.status).toBe(404)
    const mine = await del(list.data[0]!.id, a.token, 'ar')
    expect(mine.status).toBe(200)
    expect(await mine.json()).toEqual({ message: 'تم الحذف بنجاح' })
    expect((await del(list.data[0]!.id, a.token)).status).toBe(404)
  })

  it('keeps the push token of a session, and forgets it at logout', async () => {
    const buyer = await customer(ctx)
    const set = await postForm(
      ctx.app,
      'user/fcm-token',
      { fcm_token: 'device-token-1' },
      { token: buyer.token },
    )
    expect(set.status).toBe(200)
    const id = await sessionId(buyer.token)
    const row = () =>
      ctx.db
        .selectFrom('sessions')
        .select(['fcm_token', 'fcm_token_at'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
    expect((await row()).fcm_token).toBe('device-token-1')
    expect((await row()).fcm_token_at).toBeTruthy()
    await postForm(ctx.app, 'logout', {}, { token: buyer.token })
    expect((await row()).fcm_token).toBeNull()
  })

  it('keeps pushes in the development outbox, as the browser receives them', async () => {
    const app = createApp({
      db: ctx.db,
      config: { ...ctx.config, devOutbox: true, nodeEnv: 'test' },
      clock: ctx.clock,
      passwords: testPasswords,
      push: createPushOutbox(ctx.db),
    })
    await drain()
    const buyer = await withOrder(ctx)
    await completeOrder(ctx.db, buyer.orderId, { now: ctx.clock.now() })
    await deliverPushes(ctx.db, createPushOutbox(ctx.db), { now: new Date() })
    const res = await app.request(`/api/dev/push?user=${buyer.user.username}`)
    const { data } = (await res.json()) as { data: { message: PushMessage }[] }
    expect(data).toHaveLength(2)
    expect(data[0]!.message).toMatchObject({
      notification: { title: expect.any(String), body: expect.any(String) },
      data: { kind: 'order', id: String(buyer.orderId) },
    })
    // Not there without the development outbox.
    const plain = ctx.appWith({ devOutbox: false })
    expect((await plain.request('/api/dev/push?user=x')).status).toBe(404)
  })

  it('gives the storefront the Firebase web settings when the server has them and sends pushes', async () => {
    const web = {
      apiKey: 'AIzaSyA-example',
      projectId: 'my-store',
      messagingSenderId: '1234',
      appId: '1:1234:web:ab',
      vapidKey: 'BVapid',
    }
    const configOf = async (app: ReturnType<TestContext['appWith']>) => {
      const res = await app.request('/api/push/config')
      expect(res.status).toBe(200)
      expect(res.headers.get('cache-control')).toBe('public, max-age=300')
      return v.parse(PushConfigReplySchema, await res.json()).data
    }
    // The test server sends pushes to the development outbox.
    expect(await configOf(ctx.appWith({ push: { ...ctx.config.push, web } }))).toEqual(web)
    expect(await configOf(ctx.appWith({ push: { ...ctx.config.push, web: undefined } }))).toBe(null)
    // Settings, but nothing to send pushes with: no device is asked.
    const silent = ctx.appWith({ devOutbox: false, push: { ...ctx.config.push, web } })
    expect(await configOf(silent)).toBe(null)
  })
})
