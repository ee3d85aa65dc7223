import { URI, type TOTP } from 'otpauth'
import sharp from 'sharp'
import * as v from 'valibot'
import { expect, it } from 'vitest'
import {
  OperatorListReplySchema,
  OperatorReplySchema,
  TodayReplySchema,
  TopUpDecisionReplySchema,
  TopUpQueueReplySchema,
} from '../../src/contract/console'
import { ENDPOINTS, type Endpoint } from '../../src/contract/endpoints'
import { ChargeReplySchema } from '../../src/contract/wallet'
import { CONSOLE_IDLE_MS } from '../services/operators'
import { runOperator } from '../test/cli'
import {
  consoleAccount,
  cookieOf,
  post,
  read,
  signedIn as consoleSignedIn,
  signIn as consoleSignIn,
  type ConsoleAccount,
} from '../test/console'
import { describeEachDatabase } from '../test/context'
import { balanceOf, customer, get, twoServers } from '../test/orders'

const CONSOLE = Object.values<Endpoint>(ENDPOINTS).filter((e) => e.path.startsWith('/admin/'))
const pathOf = (e: Endpoint) => `/api${e.path.replaceAll(/:\w+/g, '1')}`

/** A real photo: a PNG drawn by sharp. */
const png = () =>
  sharp({ create: { width: 40, height: 30, channels: 3, background: '#c33' } })
    .png()
    .toBuffer()

describeEachDatabase('operator console', (ctx) => {
  const code = (account: ConsoleAccount, offsetMs = 0) =>
    account.totp.generate({ timestamp: ctx.clock.now().getTime() + offsetMs })

  const signIn = (account: ConsoleAccount, second = code(account), app = ctx.app) =>
    consoleSignIn(ctx, account, second, app)

  const signedIn = (role: 'owner' | 'operator' = 'operator') => consoleSignedIn(ctx, role)

  async function waitingReceipt(locale: 'en' | 'ar' = 'en', value = '50') {
    const owner = await customer(ctx, { balance: '0', locale })
    const form = new FormData()
    form.append('name', 'WHISH_MONEY')
    form.append('value', value)
    form.append('image', new Blob([new Uint8Array(await png())], { type: 'image/png' }), 'r.png')
    const res = await ctx.app.request('/api/charging-processes', {
      method: 'POST',
      body: form,
      headers: { authorization: `Bearer ${owner.token}` },
    })
    expect(res.status, await res.clone().text()).toBe(200)
    return { ...owner, charge: v.parse(ChargeReplySchema, await res.json()).data }
  }

  it('signs in with the password and the authenticator code, in a cookie of its own', async () => {
    const account = await consoleAccount(ctx, 'operator')
    const res = await post(ctx.app, 'sign-in', {
      username: account.username.toUpperCase(),
      password: account.password,
      code: code(account),
    })
    expect(res.status, await res.clone().text()).toBe(200)
    expect(v.parse(OperatorReplySchema, await res.json()).data).toMatchObject({
      username: account.username,
      role: 'operator',
    })
    const set = res.headers.get('set-cookie')!
    expect(set).toMatch(/HttpOnly/i)
    expect(set).toMatch(/SameSite=Strict/i)
    expect(set).toMatch(/Path=\/api\/admin/)
    const me = await read(ctx.app, 'me', cookieOf(res))
    expect(me.status).toBe(200)
    expect(v.parse(OperatorReplySchema, await me.json()).data.username).toBe(account.username)
    const audit = await ctx.db
      .selectFrom('audit_log')
      .selectAll()
      .where('actor', '=', `console:${account.username}`)
      .execute()
    expect(audit.map((a) => a.action)).toEqual(['console.sign_in'])
  })

  it('refuses a wrong code, a wrong password, and a code used already', async () => {
    const account = await consoleAccount(ctx, 'operator')
    const good = code(account)
    const wrong = String((Number(good) + 1) % 1_000_000).padStart(6, '0')
    const tries = [
      { password: account.password, code: wrong },
      { password: 'not the password', code: good },
      { password: account.password, code: 'zzzzz-zzzzz' },
    ]
    for (const t of tries) {
      const res = await post(ctx.app, 'sign-in', { username: account.username, ...t })
      expect(res.status).toBe(401)
      expect(res.headers.get('set-cookie')).toBeNull()
      expect(((await res.json()) as { message: string }).message).toBe(
        'The username, password or code is wrong.',
      )
    }
    await signIn(account, good)
    // The same code again (a code seen over a shoulder, replayed within its 30 seconds).
    const again = await post(ctx.app, 'sign-in', { ...account, code: good })
    expect(again.status).toBe(401)
    // Nobody of that name: the same answer.
    const nobody = await post(ctx.app, 'sign-in', { ...account, username: 'nobody', code: good })
    expect(nobody.status).toBe(401)
    // Not a code at all: what to type, in Arabic too.
    const bad = await post(ctx.app, 'sign-in?local=ar', { ...account, code: '12' })
    expect(bad.status).toBe(422)
    expect(((await bad.json()) as { message: string }).message).toContain('تطبيق المصادقة')
  })

  it('takes a recovery code once, even when it is tried many times at the same moment', async () => {
    const account = await consoleAccount(ctx, 'owner')
    const [first] = account.recoveryCodes
    const { apps, close } = twoServers(ctx)
    try {
      const results = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          post(apps[i % 2]!, 'sign-in', { ...account, code: first!.toUpperCase() }),
        ),
      )
      expect(results.map((r) => r.status).sort()).toEqual([200, 401, 401, 401, 401, 401])
    } finally {
      await close()
    }
    const later = await post(ctx.app, 'sign-in', { ...account, code: first })
    expect(later.status).toBe(401)
    // Another of its codes still works.
    await signIn(account, account.recoveryCodes[1])
  })

  it('ends a session unused for 30 minutes, keeps one in use, and signs out everywhere', async () => {
    const { account, cookie } = await signedIn()
    ctx.clock.advance(CONSOLE_IDLE_MS - 60_000)
    expect((await read(ctx.app, 'me', cookie)).status).toBe(200)
    ctx.clock.advance(CONSOLE_IDLE_MS - 60_000)
    expect((await read(ctx.app, 'me', cookie)).status).toBe(200)
    ctx.clock.advance(CONSOLE_IDLE_MS)
    const idle = await read(ctx.app, 'me', cookie)
    expect(idle.status).toBe(401)
    expect(((await idle.json()) as { message: string }).message).toBe('Sign in to the console.')

    const phone = await signIn(account)
    ctx.clock.advance(30_000)
    const laptop = await signIn(account)
    const out = await post(ctx.app, 'sign-out', {}, phone)
    expect(out.status).toBe(200)
    expect((await read(ctx.app, 'me', phone)).status).toBe(401)
    expect((await read(ctx.app, 'me', laptop)).status).toBe(200)
    ctx.clock.advance(30_000)
    const other = await signIn(account)
    expect((await post(ctx.app, 'sign-out-everywhere', {}, laptop)).status).toBe(200)
    expect((await read(ctx.app, 'me', laptop)).status).toBe(401)
    expect((await read(ctx.app, 'me', other)).status).toBe(401)
  })

  it('keeps the owner-only calls from an operator', async () => {
    const operator = await signedIn('operator')
    const refused = await read(ctx.app, 'operators', operator.cookie)
    expect(refused.status).toBe(403)
    expect(((await refused.json()) as { message: string }).message).toBe(
      "Only the store's owner can do this.",
    )
    const owner = await signedIn('owner')
    const listed = await read(ctx.app, 'operators', owner.cookie)
    expect(listed.status).toBe(200)
    const names = v.parse(OperatorListReplySchema, await listed.json()).data.map((o) => o.username)
    expect(names).toEqual(
      expect.arrayContaining([operator.account.username, owner.account.username]),
    )
  })

  it("answers a customer's token and an API token 403 on every console call", async () => {
    const { token } = await customer(ctx)
    const apiToken = `4412|${'A'.repeat(40)}`
    const { cookie } = await signedIn('owner')
    expect(CONSOLE.length).toBeGreaterThanOrEqual(9)
    for (const e of CONSOLE) {
      for (const bearer of [token, apiToken]) {
        // With the console's own cookie too: a bearer token never rides along into the console.
        const res = await ctx.app.request(pathOf(e), {
          method: e.method,
          headers: { authorization: `Bearer ${bearer}`, origin: 'http://localhost', cookie },
        })
        expect(res.status, `${e.method} ${e.path}`).toBe(403)
      }
    }
  })

  it("never lets a console session into a customer's calls", async () => {
    const { cookie } = await signedIn('owner')
    const customerCalls = Object.values<Endpoint>(ENDPOINTS).filter(
      (e) => e.auth === 'user' || e.auth === 'user-or-token',
    )
    for (const e of customerCalls) {
      const res = await ctx.app.request(pathOf(e), {
        method: e.method,
        headers: { origin: 'http://localhost', cookie },
      })
      expect(res.status, `${e.method} ${e.path}`).toBe(401)
    }
  })

  it('refuses a write from another site, and too many sign-in tries', async () => {
    const { account, cookie } = await signedIn()
    const { charge } = await waitingReceipt()
    const res = await ctx.app.request(`/api/admin/top-ups/${charge.id}/approve`, {
      method: 'POST',
      headers: { origin: 'https://evil.example', cookie },
    })
    expect(res.status).toBe(403)
    expect((await read(ctx.app, 'top-ups', cookie)).status).toBe(200)

    // Ten tries per account in 15 minutes, the sign-in above one of them.
    const statuses: number[] = []
    for (let i = 0; i < 11; i++) {
      const wrong = { ...account, password: 'wrong', code: code(account) }
      statuses.push((await post(ctx.app, 'sign-in', wrong)).status)
    }
    expect(statuses).toEqual([...Array<number>(9).fill(401), 429, 429])
  })

  it('lists the waiting receipts with their customer, and serves the photo to the console only', async () => {
    const { cookie } = await signedIn()
    const { token, user, charge } = await waitingReceipt('en', '20')
    const res = await read(ctx.app, 'top-ups', cookie)
    expect(res.status).toBe(200)
    const queue = v.parse(TopUpQueueReplySchema, await res.json()).data
    const item = queue.find((q) => q.id === charge.id)
    expect(item).toMatchObject({
      name: 'WHISH_MONEY',
      value: 20,
      shipping_value: 19.6,
      currency: 'USD',
      status: 'WAITING',
      image: `/api/admin/top-ups/${charge.id}/receipt`,
      customer: { id: user.id, username: user.username, balance: 0, history: [] },
    })
    const photo = await read(ctx.app, `top-ups/${charge.id}/receipt`, cookie)
    expect(photo.status).toBe(200)
    expect(photo.headers.get('content-type')).toBe('image/jpeg')
    expect((await sharp(new Uint8Array(await photo.arrayBuffer())).metadata()).format).toBe('jpeg')
    expect((await get(ctx.app, `admin/top-ups/${charge.id}/receipt`, token)).status).toBe(403)
    expect((await read(ctx.app, `top-ups/${charge.id}/receipt`)).status).toBe(401)
  })

  it('credits a receipt once when two operators approve it at the same moment', async () => {
    const first = await signedIn()
    const second = await signedIn()
    const { user, charge } = await waitingReceipt('en', '50')
    const { apps, close } = twoServers(ctx)
    let results: Response[]
    try {
      results = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          post(apps[i % 2]!, `top-ups/${charge.id}/approve`, {}, [first, second][i % 2]!.cookie),
        ),
      )
    } finally {
      await close()
    }
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409, 409, 409, 409])
    const ok = results.find((r) => r.status === 200)!
    expect(v.parse(TopUpDecisionReplySchema, await ok.json())).toMatchObject({
      message: `Top-up #${charge.id} approved: the customer's wallet is credited.`,
      data: { id: charge.id, status: 'COMPLETED' },
    })
    expect(await balanceOf(ctx, user.id)).toBe(49_000_000n)
    const lines = await ctx.db
      .selectFrom('wallet_logs')
      .select('value')
      .where('user_id', '=', user.id)
      .execute()
    expect(lines.map((l) => l.value)).toEqual([49_000_000n])
    const audit = await ctx.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'charges.approve')
      .where('user_id', '=', user.id)
      .execute()
    expect(audit).toHaveLength(1)
    expect([first, second].map((s) => `console:${s.account.username}`)).toContain(audit[0]!.actor)
  })

  it("rejects with a reason the customer reads in their language, and the CLI's commands agree", async () => {
    const { cookie } = await signedIn()
    const { token, user, charge } = await waitingReceipt('ar', '30')
    const missing = await post(
      ctx.app,
      `top-ups/${charge.id}/reject?local=ar`,
      { reason: ' ' },
      cookie,
    )
    expect(missing.status).toBe(422)
    const res = await post(
      ctx.app,
      `top-ups/${charge.id}/reject`,
      { reason: 'The receipt is unreadable' },
      cookie,
    )
    expect(res.status, await res.clone().text()).toBe(200)
    expect(v.parse(TopUpDecisionReplySchema, await res.json()).data.status).toBe('CANCELED')
    expect(await balanceOf(ctx, user.id)).toBe(0n)
    const notices = await get(ctx.app, 'notifications?local=ar', token)
    const text = JSON.stringify(await notices.json())
    expect(text).toContain(`رُفض شحنك رقم ${charge.id}`)
    expect(text).toContain('The receipt is unreadable')
    // The CLI sees it decided, as the console did.
    const cli = await runOperator(ctx, 'charges:approve', String(charge.id))
    expect(cli.code).toBe(1)
    expect(cli.stderr).toContain('is CANCELED')
    expect((await post(ctx.app, `top-ups/${charge.id}/approve`, {}, cookie)).status).toBe(409)

    // The next receipt of the same customer shows this one in its history.
    const again = await waitingReceiptOf(token)
    const queue = v.parse(
      TopUpQueueReplySchema,
      await (await read(ctx.app, 'top-ups', cookie)).json(),
    ).data
    expect(queue.find((q) => q.id === again)?.customer.history).toEqual([
      expect.objectContaining({ id: charge.id, status: 'CANCELED', value: 30 }),
    ])
  })

  async function waitingReceiptOf(token: string) {
    const form = new FormData()
    form.append('name', 'OMT_PAY')
    form.append('value', '10')
    form.append('image', new Blob([new Uint8Array(await png())], { type: 'image/png' }), 'r.png')
    const res = await ctx.app.request('/api/charging-processes', {
      method: 'POST',
      body: form,
      headers: { authorization: `Bearer ${token}` },
    })
    expect(res.status).toBe(200)
    return v.parse(ChargeReplySchema, await res.json()).data.id
  }

  it("counts today's work, each count what its queue holds", async () => {
    const { cookie } = await signedIn()
    const before = v.parse(TodayReplySchema, await (await read(ctx.app, 'today', cookie)).json())
    const { charge } = await waitingReceipt('en', '10')
    const after = v.parse(TodayReplySchema, await (await read(ctx.app, 'today', cookie)).json())
    expect(after.data.waiting_top_ups).toBe(before.data.waiting_top_ups + 1)
    const queue = v.parse(
      TopUpQueueReplySchema,
      await (await read(ctx.app, 'top-ups', cookie)).json(),
    ).data
    expect(queue.length).toBe(after.data.waiting_top_ups)
    expect(queue.map((q) => q.id)).toContain(charge.id)
    await post(ctx.app, `top-ups/${charge.id}/approve`, {}, cookie)
    const done = v.parse(TodayReplySchema, await (await read(ctx.app, 'today', cookie)).json())
    expect(done.data.waiting_top_ups).toBe(before.data.waiting_top_ups)
    const usd = (t: typeof done) => t.data.top_ups.find((x) => x.currency === 'USD')
    expect((usd(done)?.amount ?? 0) - (usd(before)?.amount ?? 0)).toBeCloseTo(9.8)
  })

  it('enrols a new second factor for a lost phone: the old codes and sessions stop', async () => {
    const { account, cookie } = await signedIn()
    const reset = await runOperator(ctx, 'operators:second-factor', account.username, '--json')
    expect(reset.code, reset.stderr).toBe(0)
    const fresh = JSON.parse(reset.stdout) as { otpauth_uri: string; recovery_codes: string[] }
    expect((await read(ctx.app, 'me', cookie)).status).toBe(401)
    const old = await post(ctx.app, 'sign-in', { ...account, code: account.recoveryCodes[2] })
    expect(old.status).toBe(401)
    await signIn({ ...account, totp: URI.parse(fresh.otpauth_uri) as TOTP })
    const help = await runOperator(ctx, 'help')
    expect(help.stdout).toContain('operators:second-factor')
    expect(help.stdout).toMatch(/users:create .*--role/s)
  })
})
