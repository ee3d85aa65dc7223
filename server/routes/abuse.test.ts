import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { ValidationErrorReplySchema } from '../../src/contract/common'
import { addressKey } from '../http/client-ip'
import { freshUser, lastCode, outbox, postForm, signUp } from '../test/accounts'
import { describeEachDatabase } from '../test/context'
import { customer, get } from '../test/orders'

const MINUTE = 60_000
const HOUR = 60 * MINUTE

describe('addressKey', () => {
  it('keeps IPv4 whole and counts IPv6 by its /64', () => {
    expect(addressKey('203.0.113.9')).toBe('203.0.113.9')
    expect(addressKey('::ffff:203.0.113.9')).toBe('203.0.113.9')
    expect(addressKey('2001:db8:1:2:3:4:5:6')).toBe('2001:db8:1:2::/64')
    expect(addressKey('2001:DB8:1:2::ffff')).toBe('2001:db8:1:2::/64')
    expect(addressKey('2001:db8::1')).toBe('2001:db8:0:0::/64')
    expect(addressKey('not an address')).toBe('not an address')
    expect(addressKey(null)).toBeNull()
    expect(addressKey('')).toBeNull()
  })
})

describeEachDatabase('abuse limits', (ctx) => {
  const message = async (res: Response) => ((await res.json()) as { message: string }).message
  const proxied = (overrides = {}) => ctx.appWith({ trustProxy: 1, ...overrides })
  const xff = (ip: string) => ({ 'x-forwarded-for': ip })

  describe('sign-up', () => {
    it('is throttled per address before it says which details are taken', async () => {
      const app = proxied({ rateLimits: { ...ctx.config.rateLimits, signupsPerIp: 3 } })
      const { user } = await signUp(ctx)
      const probe = (ip: string) =>
        postForm(
          app,
          'signup?validate=1&local=en',
          { ...freshUser(), email: user.email },
          {
            headers: xff(ip),
          },
        )
      for (let i = 0; i < 3; i++) {
        const res = await probe('203.0.113.30')
        expect(res.status).toBe(422)
        expect(v.parse(ValidationErrorReplySchema, await res.json()).errors.email).toEqual([
          'This email is already registered',
        ])
      }
      const refused = await probe('203.0.113.30')
      expect(refused.status).toBe(429)
      expect(await message(refused)).toMatch(
        /^Too many requests. Please try again in \d+ minutes?\.$/,
      )
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
      // Another /64 or address is counted apart; the next hour starts again.
      expect((await probe('203.0.113.31')).status).toBe(422)
      ctx.clock.advance(HOUR)
      expect((await probe('203.0.113.30')).status).toBe(422)
    })

    it('sends codes only to numbers of CODE_COUNTRIES', async () => {
      const french = { ...freshUser(), phone_number: '+33612345678' }
      const refused = await postForm(ctx.app, 'signup?validate=1&local=en', french)
      expect(refused.status).toBe(422)
      expect(v.parse(ValidationErrorReplySchema, await refused.json()).errors).toEqual({
        phone_number: ['We can only send codes to phone numbers in Lebanon.'],
      })
      const arabic = await postForm(ctx.app, 'signup?validate=1&local=ar', french)
      expect(await message(arabic)).toBe('لا يمكننا إرسال الرموز إلا إلى أرقام الهواتف في لبنان.')
      expect(await outbox(ctx.app, french.phone_number)).toEqual([])

      const both = ctx.appWith({ codeCountries: ['LB', 'FR'] })
      const other = { ...freshUser(), phone_number: '+4915112345678' }
      const named = await postForm(both, 'signup?validate=1&local=en', other)
      expect(await message(named)).toBe(
        'We can only send codes to phone numbers in Lebanon or France.',
      )
      expect((await postForm(both, 'signup?validate=1', french)).status).toBe(200)
      ctx.clock.advance(61_000)
    })
  })

  describe('codes', () => {
    it('stop at the hourly budget of the whole store with 503 and Retry-After', async () => {
      const app = ctx.appWith({ codeLimits: { ...ctx.config.codeLimits, perHour: 3 } })
      // The budget counts every code sent in the last hour: the earlier tests' ones age out.
      ctx.clock.advance(HOUR + 1000)
      for (let i = 0; i < 3; i++) {
        expect((await postForm(app, 'signup?validate=1', freshUser())).status).toBe(200)
      }
      const over = await postForm(app, 'signup?validate=1&local=en', freshUser())
      expect(over.status).toBe(503)
      expect(await message(over)).toMatch(
        /^We are sending too many codes right now. Please try again in \d+ minutes\.$/,
      )
      expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(3500)
      ctx.clock.advance(HOUR)
      expect((await postForm(app, 'signup?validate=1', freshUser())).status).toBe(200)
      ctx.clock.advance(61_000)
    })

    it('count the addresses of one IPv6 /64 as one address', async () => {
      const app = proxied({ codeLimits: { ...ctx.config.codeLimits, perIpPerHour: 3 } })
      const send = (ip: string) =>
        postForm(app, 'signup?validate=1', freshUser(), { headers: xff(ip) })
      for (let i = 1; i <= 3; i++) expect((await send(`2001:db8:aa:1::${i}`)).status).toBe(200)
      expect((await send('2001:db8:aa:1:ffff::9')).status).toBe(429)
      expect((await send('2001:db8:aa:2::1')).status).toBe(200)
      ctx.clock.advance(HOUR)
    })

    it('refuse cross-site simple posts: an Origin of ours or a non-simple header is needed', async () => {
      const { user } = await signUp(ctx)
      const login = { username: user.username, password: user.password }
      const attempt = (headers: Record<string, string>, path = 'login?check=1') => {
        const form = new FormData()
        for (const [k, val] of Object.entries({ ...login, email: user.email })) {
          form.append(k, val)
        }
        return ctx.app.request(`/api/${path}${path.includes('?') ? '&' : '?'}local=en`, {
          method: 'POST',
          body: form,
          headers,
        })
      }
      for (const [path, headers] of [
        ['login?check=1', { origin: 'https://evil.example' }],
        ['login?check=1', {}],
        ['login?check=1', { origin: 'null' }],
        ['signup?validate=1', { origin: 'http://localhost.evil.example' }],
        ['send/verification-code', { origin: 'https://evil.example' }],
      ] as const) {
        const res = await attempt(headers, path)
        expect(res.status, `${path} ${JSON.stringify(headers)}`).toBe(403)
        expect(await message(res)).toBe(
          'This request was refused because it came from another website.',
        )
      }
      expect(await outbox(ctx.app, user.phone_number)).toHaveLength(1) // the sign-up's only

      // Our own origin, a listed CORS origin, or a header no form can send: accepted.
      expect((await attempt({ origin: 'http://localhost' })).status).toBe(200)
      ctx.clock.advance(61_000)
      expect((await attempt({ 'x-requested-with': 'fetch' })).status).toBe(200)
      ctx.clock.advance(61_000)
      const cors = ctx.appWith({ corsOrigins: ['https://shop.example.com'] })
      const form = new FormData()
      form.append('username', user.username)
      form.append('password', user.password)
      const listed = await cors.request('/api/login?check=1', {
        method: 'POST',
        body: form,
        headers: { origin: 'https://shop.example.com' },
      })
      expect(listed.status).toBe(200)
      ctx.clock.advance(61_000)
      const json = await ctx.app.request('/api/login?check=1', {
        method: 'POST',
        body: JSON.stringify(login),
        headers: { 'content-type': 'application/json' },
      })
      expect(json.status).toBe(200)
      ctx.clock.advance(61_000)
      // Behind a trusted proxy, the host it was asked for decides. (An hour on: five codes an
      // hour is the phone's cap.)
      ctx.clock.advance(HOUR)
      const behind = await ctx.appWith({ trustProxy: 1 }).request('/api/login?check=1', {
        method: 'POST',
        body: form,
        headers: { origin: 'https://shop.example.com', 'x-forwarded-host': 'shop.example.com' },
      })
      expect(behind.status).toBe(200)
      ctx.clock.advance(61_000)
      expect(await lastCode(ctx.app, user.phone_number)).toMatch(/^\d{4}$/)
    })
  })

  describe('public calls', () => {
    it('limit anonymous player searches per address; signed-in ones are not counted', async () => {
      const app = proxied({ rateLimits: { ...ctx.config.rateLimits, lookupsPerIp: 2 } })
      const search = (ip: string, token?: string) =>
        app.request('/api/th-p-apis/1?number=5123456789&local=en', {
          headers: { ...xff(ip), ...(token ? { authorization: `Bearer ${token}` } : {}) },
        })
      expect((await search('203.0.113.40')).status).toBe(200)
      expect((await search('203.0.113.40')).status).toBe(200)
      const refused = await search('203.0.113.40')
      expect(refused.status).toBe(429)
      expect(refused.headers.get('retry-after')).not.toBeNull()
      const byName = await app.request('/api/automated/get/player/name/5123456789/pubg-mobile', {
        headers: xff('203.0.113.40'),
      })
      expect(byName.status).toBe(429)
      expect((await search('203.0.113.41')).status).toBe(200)
      const { token } = await customer(ctx)
      for (let i = 0; i < 3; i++) expect((await search('203.0.113.40', token)).status).toBe(200)
      ctx.clock.advance(HOUR)
    })

    it('limit contact-form messages per address', async () => {
      const app = proxied({ rateLimits: { ...ctx.config.rateLimits, messagesPerIp: 2 } })
      const post = (ip: string) =>
        postForm(
          app,
          'messages?local=en',
          { name: 'Rana', phone_number: '+96170123456', message: 'Hello' },
          { headers: xff(ip) },
        )
      expect((await post('203.0.113.45')).status).toBe(200)
      expect((await post('203.0.113.45')).status).toBe(200)
      const refused = await post('203.0.113.45')
      expect(refused.status).toBe(429)
      expect(await message(refused)).toMatch(/^Too many requests/)
      expect((await post('203.0.113.46')).status).toBe(200)
      const stored = await ctx.db
        .selectFrom('messages')
        .select('id')
        .where('ip', '=', '203.0.113.45')
        .execute()
      expect(stored).toHaveLength(2)
      ctx.clock.advance(HOUR)
    })

    it('limit order status refreshes per user', async () => {
      const app = ctx.appWith({
        rateLimits: { ...ctx.config.rateLimits, statusRefreshesPerUser: 2 },
      })
      const a = await customer(ctx)
      const b = await customer(ctx)
      expect((await get(app, 'automated/get/status/bulk', a.token)).status).toBe(200)
      expect((await get(app, 'automated/get/status/bulk', a.token)).status).toBe(200)
      const refused = await get(app, 'automated/get/status/bulk', a.token)
      expect(refused.status).toBe(429)
      expect(refused.headers.get('retry-after')).not.toBeNull()
      expect((await get(app, 'automated/get/status/bulk', b.token)).status).toBe(200)
      ctx.clock.advance(HOUR)
      expect((await get(app, 'automated/get/status/bulk', a.token)).status).toBe(200)
    })
  })
})
