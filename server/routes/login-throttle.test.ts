import { describe, expect, it } from 'vitest'
import { createApp } from '../app'
import { createDb } from '../db'
import { freshUser, lastCode, postForm, signUp } from '../test/accounts'
import { describeEachDatabase, testPasswords } from '../test/context'

const MINUTE = 60_000

describeEachDatabase('failed sign-in limits', (ctx) => {
  const body = async (res: Response) => ((await res.json()) as { message: string }).message
  const login = (fields: Record<string, string>, query = 'check=1', headers = {}) =>
    postForm(ctx.app, `login?${query}`, fields, { headers })
  const wrong = (user: { username: string }) => ({
    username: user.username,
    password: 'wrong-password-1',
  })

  it('answers right passwords sent at once, from two instances, without a server error', async () => {
    // On PostgreSQL a second pool stands in for a second instance. Each success used to hold
    // its own failure row and wait for the other's: "deadlock detected", a 500, in 2 of 40.
    const other = ctx.dialect === 'postgres' ? createDb(ctx.config) : undefined
    const second = other
      ? createApp({ db: other.db, config: ctx.config, clock: ctx.clock, passwords: testPasswords })
      : ctx.app
    try {
      for (let round = 0; round < 40; round++) {
        const { user } = await signUp(ctx)
        const right = { username: user.username, password: user.password }
        const replies = await Promise.all(
          [ctx.app, second, ctx.app, second, ctx.app].map((app) =>
            postForm(app, 'login?check=1', right),
          ),
        )
        // One code is sent; the others wait for the resend minute.
        expect(replies.map((r) => r.status).sort(), `round ${round + 1}`).toEqual([
          200, 429, 429, 429, 429,
        ])
        ctx.clock.advance(61_000)
      }
    } finally {
      await other?.destroy()
    }
  })

  it('refuses the 11th check after 10 wrong passwords, even a right one, until 15 minutes pass', async () => {
    const { user } = await signUp(ctx)
    for (let i = 0; i < 10; i++) {
      expect((await login(wrong(user))).status, `try ${i + 1}`).toBe(422)
    }
    const right = { username: user.username, password: user.password }
    const refused = await login(right, 'check=1&local=en')
    expect(refused.status).toBe(429)
    expect(await body(refused)).toBe(
      'Too many failed sign-in attempts. Please try again in 15 minutes.',
    )
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(14 * 60)
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(15 * 60)
    // The same identity however it is typed, and the code step too.
    const ar = await login({ ...right, username: user.username.toUpperCase() }, 'check=1&local=ar')
    expect(ar.status).toBe(429)
    expect(await body(ar)).toBe(
      'محاولات تسجيل دخول فاشلة كثيرة. يُرجى المحاولة مرة أخرى بعد 15 دقيقة.',
    )
    expect((await login({ ...right, verification_code: '1234' }, 'auth=1')).status).toBe(429)

    ctx.clock.advance(5 * MINUTE)
    expect(await body(await login(right))).toBe(
      'Too many failed sign-in attempts. Please try again in 10 minutes.',
    )
    ctx.clock.advance(10 * MINUTE + 1000)
    const checked = await login(right)
    expect(checked.status).toBe(200)
    const code = await lastCode(ctx.app, user.phone_number)
    expect((await login({ ...right, verification_code: code }, 'auth=1')).status).toBe(200)
    ctx.clock.advance(61_000)
  })

  it('limits names and numbers without an account the same way', async () => {
    const nobody = freshUser()
    for (let i = 0; i < 10; i++) {
      const res = await login({ phone_number: nobody.phone_number, password: 'whatever-1' })
      expect(res.status, `try ${i + 1}`).toBe(422)
    }
    // The local form of the same number is the same identity.
    const local = `0${nobody.phone_number.slice(4)}`
    expect((await login({ phone_number: local, password: 'whatever-1' })).status).toBe(429)
    expect((await login({ username: nobody.username, password: 'whatever-1' })).status).toBe(422)
  })

  it('clears the count on a right password', async () => {
    const { user } = await signUp(ctx)
    const right = { username: user.username, password: user.password }
    for (let i = 0; i < 9; i++) expect((await login(wrong(user))).status).toBe(422)
    expect((await login(right)).status).toBe(200)
    ctx.clock.advance(61_000)
    for (let i = 0; i < 10; i++) {
      expect((await login(wrong(user))).status, `try ${i + 1}`).toBe(422)
    }
    expect((await login(wrong(user))).status).toBe(429)
  })

  it('counts concurrent guesses one by one', async () => {
    const { user } = await signUp(ctx)
    for (let i = 0; i < 8; i++) expect((await login(wrong(user))).status).toBe(422)
    const burst = await Promise.all([1, 2, 3, 4].map(() => login(wrong(user))))
    expect(burst.map((r) => r.status).sort()).toEqual([422, 422, 429, 429])
  })

  it('allows 50 failed checks per client address across usernames', async () => {
    const app = ctx.appWith({ trustProxy: 1 })
    const from = (ip: string, username: string) =>
      postForm(
        app,
        'login?check=1&local=en',
        { username, password: 'wrong-password-1' },
        { headers: { 'x-forwarded-for': ip } },
      )
    for (let i = 0; i < 50; i++) {
      expect((await from('203.0.113.70', `spray_${i}`)).status, `try ${i + 1}`).toBe(422)
    }
    const capped = await from('203.0.113.70', 'spray_fresh')
    expect(capped.status).toBe(429)
    expect(await body(capped)).toMatch(/^Too many failed sign-in attempts/)
    expect(capped.headers.get('retry-after')).not.toBeNull()
    expect((await from('203.0.113.71', 'spray_fresh')).status).toBe(422)
    ctx.clock.advance(15 * MINUTE + 1000)
    expect((await from('203.0.113.70', 'spray_later')).status).toBe(422)
  })

  describe('per account and address together', () => {
    const app = () => ctx.appWith({ trustProxy: 1 })
    const from = (ip: string, fields: Record<string, string>, query = 'check=1&local=en') =>
      postForm(app(), `login?${query}`, fields, { headers: { 'x-forwarded-for': ip } })

    it("an attacker's failures from one address never refuse the owner on another", async () => {
      const { user } = await signUp(ctx)
      for (let i = 0; i < 10; i++) {
        expect((await from('203.0.113.80', wrong(user))).status, `try ${i + 1}`).toBe(422)
      }
      expect((await from('203.0.113.80', wrong(user))).status).toBe(429)
      const right = { username: user.username, password: user.password }
      // The attacker's address is refused even the right password; the owner's is not.
      expect((await from('203.0.113.80', right)).status).toBe(429)
      expect((await from('198.51.100.7', right)).status).toBe(200)
      const code = await lastCode(ctx.app, user.phone_number)
      const done = await from('198.51.100.7', { ...right, verification_code: code }, 'auth=1')
      expect(done.status).toBe(200)
      ctx.clock.advance(61_000)
    })

    it("never refuses the owner's right password on a device that signed in before", async () => {
      // Codes are not what this is about: the phone may get one a minute all along.
      const generous = ctx.appWith({
        trustProxy: 1,
        codeLimits: { ...ctx.config.codeLimits, perRecipientPerHour: 1000 },
      })
      const at = (ip: string, fields: Record<string, string>, query: string, cookie?: string) =>
        postForm(generous, `login?${query}&local=en`, fields, {
          headers: { 'x-forwarded-for': ip, ...(cookie ? { cookie } : {}) },
        })
      const { user } = await signUp(ctx)
      const other = await signUp(ctx)
      const right = { username: user.username, password: user.password }
      // The owner signs in once at home: the browser keeps the device cookie.
      expect((await at('198.51.100.30', right, 'check=1')).status).toBe(200)
      const code = await lastCode(ctx.app, user.phone_number)
      const done = await at('198.51.100.30', { ...right, verification_code: code }, 'auth=1')
      expect(done.status).toBe(200)
      const setCookie = done.headers.get('set-cookie') ?? ''
      expect(setCookie).toMatch(
        /^device=v1\.\d+\.[\w-]+\.[\w-]+; Max-Age=31536000; Path=\/api; HttpOnly; SameSite=Strict/,
      )
      const device = setCookie.split(';')[0]!
      // Another account's device cookie, and a forged one, count for nothing here.
      const otherRight = { username: other.user.username, password: other.user.password }
      expect((await at('198.51.100.31', otherRight, 'check=1')).status).toBe(200)
      const otherCode = await lastCode(ctx.app, other.user.phone_number)
      const otherDone = await at(
        '198.51.100.31',
        { ...otherRight, verification_code: otherCode },
        'auth=1',
      )
      const otherDevice = (otherDone.headers.get('set-cookie') ?? '').split(';')[0]!
      expect(otherDevice).toMatch(/^device=/)
      const forged = device.replace(/.$/, (ch) => (ch === 'A' ? 'B' : 'A'))
      ctx.clock.advance(61_000)

      // An attacker on a new address each time: 30 wrong passwords (the day's ceiling), then
      // one more each time the account's wait ends, 32 times. The owner tries each time too.
      for (let i = 0; i < 30; i++)
        expect((await at(`203.0.113.${i}`, wrong(user), 'check=1')).status).toBe(422)
      let owner = 0
      for (let round = 0; round < 32; round++) {
        const probe = await at(`192.0.2.${round}`, wrong(user), 'check=1')
        expect(probe.status, `round ${round + 1}`).toBe(429)
        ctx.clock.advance(Math.max(Number(probe.headers.get('retry-after')) * 1000, 61_000))
        expect((await at(`198.18.0.${round}`, wrong(user), 'check=1')).status).toBe(422)
        // Without the cookie (a new browser, or a forged cookie) the owner waits...
        for (const cookie of [undefined, forged, otherDevice]) {
          const refused = await at(`198.18.1.${round}`, right, 'check=1', cookie)
          expect(refused.status).toBe(429)
          expect(await body(refused)).toMatch(/^Too many failed sign-in attempts/)
        }
        // ...on the device that signed in before, never.
        const mine = await at(`198.18.2.${round}`, right, 'check=1', device)
        if (mine.status === 200) owner++
      }
      expect(owner).toBe(32)
      // The device's own wrong passwords hold the device alone, after 10.
      for (let i = 0; i < 10; i++)
        expect((await at('198.18.3.1', wrong(user), 'check=1', device)).status).toBe(422)
      const held = await at('198.18.3.1', right, 'check=1', device)
      expect(held.status).toBe(429)
      ctx.clock.advance(24 * 60 * MINUTE)
    })

    it('counts the addresses of one IPv6 /64 as one', async () => {
      const { user } = await signUp(ctx)
      for (let i = 0; i < 10; i++) {
        const res = await from(`2001:db8:7:1::${(i + 1).toString(16)}`, wrong(user))
        expect(res.status, `try ${i + 1}`).toBe(422)
      }
      expect((await from('2001:db8:7:1:ffff:1:2:3', wrong(user))).status).toBe(429)
      expect((await from('2001:db8:7:2::1', wrong(user))).status).toBe(422)
      ctx.clock.advance(15 * MINUTE + 1000)
    })

    it('past 30 failures a day on one account, every try waits a growing delay, never a lock', async () => {
      const { user } = await signUp(ctx)
      const right = { username: user.username, password: user.password }
      for (let i = 0; i < 30; i++) {
        const res = await from(`203.0.113.${100 + Math.floor(i / 10)}`, wrong(user))
        expect(res.status, `try ${i + 1}`).toBe(422)
      }
      // The ceiling is reached: the owner, on an address of their own, waits 10 seconds.
      const waiting = await from('198.51.100.8', right)
      expect(waiting.status).toBe(429)
      expect(Number(waiting.headers.get('retry-after'))).toBeLessThanOrEqual(10)
      ctx.clock.advance(10_000)
      expect((await from('198.51.100.8', right)).status).toBe(200)
      ctx.clock.advance(61_000)

      // Each further failure doubles the wait (20 s, 40 s, ...), up to 15 minutes.
      let expected = 20
      for (let i = 0; i < 8; i++) {
        expect((await from(`203.0.113.${110 + i}`, wrong(user))).status, `failure ${31 + i}`).toBe(
          422,
        )
        const refused = await from(`203.0.113.${120 + i}`, wrong(user))
        expect(refused.status).toBe(429)
        expect(Number(refused.headers.get('retry-after')), `after ${31 + i}`).toBe(expected)
        ctx.clock.advance(expected * 1000)
        expected = Math.min(expected * 2, 900)
      }
      expect(expected).toBe(900)
      // A day after the last failures the account starts from zero.
      ctx.clock.advance(24 * 60 * MINUTE)
      expect((await from('198.51.100.8', right)).status).toBe(200)
      ctx.clock.advance(61_000)
    })
  })
})
