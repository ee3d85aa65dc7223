import { createHash, randomBytes } from 'node:crypto'
import * as v from 'valibot'
import { expect, it } from 'vitest'
import { ProfileReplySchema } from '../../src/contract/profile'
import { MessageReplySchema, ValidationErrorReplySchema } from '../../src/contract/common'
import { ApiTokenReplySchema } from '../../src/contract/token'
import { toMicros } from '../../src/domain/money'
import type { App } from '../app'
import { postForm } from '../test/accounts'
import { describeEachDatabase } from '../test/context'
import { balanceOf, customer, packageId, setPackagePrice } from '../test/orders'

/** A random API token of the dialog's shape. */
const newToken = () => {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'
  let random = ''
  for (const byte of randomBytes(40)) random += alphabet[byte % 62]
  return `4412|${random}`
}

/** What @hono/node-server gives a handler: the socket's address (getConnInfo reads it). */
const socket = (remoteAddress: string | undefined) => ({ incoming: { socket: { remoteAddress } } })

interface Call {
  ip?: string
  token: string
  method?: 'GET' | 'POST'
  fields?: Record<string, string>
  headers?: Record<string, string>
}

/** A call to /api/<path> from a client address, with a bearer token. */
function call(app: App, path: string, { ip, token, method = 'GET', fields, headers = {} }: Call) {
  let body: FormData | undefined
  if (fields) {
    body = new FormData()
    for (const [k, value] of Object.entries(fields)) body.append(k, value)
  }
  return app.request(
    `/api/${path}`,
    {
      method: fields ? 'POST' : method,
      body,
      headers: { authorization: `Bearer ${token}`, ...headers },
    },
    socket(ip),
  )
}

describeEachDatabase('API tokens', (ctx) => {
  async function reseller(whitelist: string, balance = '100') {
    const account = await customer(ctx, { balance })
    const apiToken = newToken()
    const res = await postForm(
      ctx.app,
      'user/token',
      { token: apiToken, ip_whitelist: whitelist },
      { token: account.token },
    )
    expect(res.status, await res.clone().text()).toBe(200)
    return { ...account, apiToken }
  }

  const rowOf = (id: number) =>
    ctx.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow()

  it('POST user/token keeps the hash and a sealed copy, never the token in clear', async () => {
    const { token, user } = await customer(ctx)
    const apiToken = newToken()
    const res = await postForm(
      ctx.app,
      'user/token?local=ar',
      { token: apiToken, ip_whitelist: ' 203.0.113.7 \r\n\r\n198.51.100.9/24\n::FFFF:192.0.2.5' },
      { token },
    )
    expect(res.status).toBe(200)
    expect(v.parse(ApiTokenReplySchema, await res.json())).toEqual({
      message: 'تم حفظ الرمز بنجاح!',
      data: { token: apiToken, ip_whitelist: '203.0.113.7\n198.51.100.0/24\n192.0.2.5' },
    })

    const row = await rowOf(user.id)
    expect(row.api_token_hash).toBe(createHash('sha256').update(apiToken).digest('hex'))
    expect(row.api_token).toMatch(/^v1\.[A-Za-z0-9_-]+$/)
    expect(row.api_token).not.toContain(apiToken.slice(5))
    const secret = await ctx.db
      .selectFrom('settings')
      .select('value')
      .where('key', '=', 'api_token_secret')
      .executeTakeFirst()
    expect(secret?.value).toMatch(/^[A-Za-z0-9_-]{43}$/)

    // Its owner sees it again, in clear.
    const profile = await call(ctx.app, 'profile', { token })
    expect(v.parse(ProfileReplySchema, await profile.json()).data).toMatchObject({
      token: apiToken,
      ip_whitelist: '203.0.113.7\n198.51.100.0/24\n192.0.2.5',
    })
    const english = await postForm(
      ctx.app,
      'user/token',
      { token: apiToken, ip_whitelist: '203.0.113.7' },
      { token },
    )
    expect(v.parse(ApiTokenReplySchema, await english.json()).message).toBe(
      'Token saved successfully!',
    )
  })

  it('under another key the copy cannot be shown, and the token still works', async () => {
    const { token, apiToken } = await reseller('203.0.113.7')
    const rotated = ctx.appWith({ tokenSecret: 'z'.repeat(40) })
    const own = await call(rotated, 'profile', { token })
    expect(v.parse(ProfileReplySchema, await own.json()).data.token).toBeNull()
    const used = await call(rotated, 'profile', { token: apiToken, ip: '203.0.113.7' })
    expect(used.status).toBe(200)
  })

  it('refuses a bad token or whitelist line with 422 and saves nothing', async () => {
    const { token, user, apiToken } = await reseller('203.0.113.7')
    const before = await rowOf(user.id)
    const attempt = (fields: Record<string, string>, query = '') =>
      postForm(ctx.app, `user/token${query}`, fields, { token })
    const errors = async (res: Response) => {
      expect(res.status).toBe(422)
      return v.parse(ValidationErrorReplySchema, await res.json()).errors
    }

    for (const bad of [
      '',
      'abc',
      `1|${'a'.repeat(40)}`,
      `4412|${'a'.repeat(39)}`,
      `${apiToken}!`,
      // Right shape, not random: one letter, two letters in turn, the alphabet in order.
      `4412|${'A'.repeat(40)}`,
      `4412|${'ab'.repeat(20)}`,
      `4412|${'ABCDEFGHIJKLMNOPQRSTabcdefghijklmnopqrst'}`,
    ]) {
      expect(await errors(await attempt({ token: bad, ip_whitelist: '203.0.113.7' })), bad).toEqual(
        { token: [bad === '' ? 'Token field is required' : 'Token is not valid'] },
      )
    }
    const other = newToken()
    expect(
      await errors(await attempt({ token: other, ip_whitelist: '203.0.113.7\n\n10.0.0.300\nx' })),
    ).toEqual({
      ip_whitelist: ['Line 3 of the IP whitelist is not an IP address or range: 10.0.0.300'],
    })
    expect(
      await errors(await attempt({ token: other, ip_whitelist: '2001:db8::/129' }, '?local=ar')),
    ).toEqual({
      ip_whitelist: ['السطر 1 من قائمة عناوين IP ليس عنوان IP أو نطاقًا: 2001:db8::/129'],
    })
    const many = Array.from({ length: 101 }, (_, i) => `10.1.${i}.1`).join('\n')
    expect(await errors(await attempt({ token: other, ip_whitelist: many }))).toEqual({
      ip_whitelist: ['The IP whitelist may hold at most 100 addresses.'],
    })
    // A whitelist that lets everyone in is none.
    for (const everyone of ['0.0.0.0/0', '::/0', '203.0.113.7\n0.0.0.0/1\n128.0.0.0/1'])
      expect(await errors(await attempt({ token: other, ip_whitelist: everyone }))).toEqual({
        ip_whitelist: [
          "The IP whitelist may not let every address in: enter only your servers' addresses.",
        ],
      })
    // Another account's token opens one account only, and is answered as any token that is
    // not valid: saving tokens does not tell which exist.
    const someone = await reseller('198.51.100.1')
    expect(await errors(await attempt({ token: someone.apiToken, ip_whitelist: '' }))).toEqual({
      token: ['Token is not valid'],
    })
    // And an account saves only 20 an hour, refused tries included.
    let status = 422
    for (let i = 0; i < 20 && status === 422; i++)
      status = (await attempt({ token: someone.apiToken, ip_whitelist: '' })).status
    expect(status).toBe(429)

    const after = await rowOf(user.id)
    expect(after.api_token_hash).toBe(before.api_token_hash)
    expect(after.api_token).toBe(before.api_token)
    expect(after.ip_whitelist).toBe('203.0.113.7')
  })

  it('opens the account only from a whitelisted address, range or IPv6 network', async () => {
    const { apiToken } = await reseller(
      ['203.0.113.7', '198.51.100.0/24', '2001:db8:abcd::/48', '::ffff:192.0.2.5'].join('\n'),
    )
    const status = async (ip: string | undefined) =>
      (await call(ctx.app, 'profile', { token: apiToken, ip })).status

    expect(await status('203.0.113.7')).toBe(200)
    expect(await status('198.51.100.77')).toBe(200)
    expect(await status('2001:db8:abcd:12::9')).toBe(200)
    // A dual-stack socket reports IPv4 clients as IPv4-mapped IPv6 addresses.
    expect(await status('::ffff:203.0.113.7')).toBe(200)
    expect(await status('::ffff:198.51.100.1')).toBe(200)
    // An IPv4-mapped whitelist entry is its IPv4 address.
    expect(await status('192.0.2.5')).toBe(200)

    for (const ip of ['203.0.113.8', '198.51.101.1', '2001:db8:abce::1', '::1', undefined])
      expect(await status(ip), ip).toBe(403)

    const refused = await call(ctx.app, 'profile', { token: apiToken, ip: '::ffff:203.0.113.8' })
    expect(v.parse(MessageReplySchema, await refused.json()).message).toBe(
      "This API token may not be used from 203.0.113.8. Add the address to the token's IP whitelist.",
    )
  })

  it('ignores an X-Forwarded-For that no trusted proxy wrote', async () => {
    const { apiToken } = await reseller('203.0.113.7')
    const forged = { 'x-forwarded-for': '203.0.113.7' }
    // No proxy is trusted: the header is the client's own word.
    const direct = await call(ctx.app, 'profile', {
      token: apiToken,
      ip: '198.18.0.9',
      headers: forged,
    })
    expect(direct.status).toBe(403)

    // Behind one trusted proxy only the entry it appended (the last) counts.
    const proxied = ctx.appWith({ trustProxy: 1 })
    const spoofed = await call(proxied, 'profile', {
      token: apiToken,
      ip: '10.0.0.2',
      headers: { 'x-forwarded-for': '203.0.113.7, 198.18.0.9' },
    })
    expect(spoofed.status).toBe(403)
    const real = await call(proxied, 'profile', {
      token: apiToken,
      ip: '10.0.0.2',
      headers: { 'x-forwarded-for': '198.18.0.9, 203.0.113.7' },
    })
    expect(real.status).toBe(200)
  })

  it('an empty whitelist switches the token off', async () => {
    const { apiToken } = await reseller('')
    const res = await call(ctx.app, 'profile', { token: apiToken, ip: '203.0.113.7' })
    expect(res.status).toBe(403)
    expect(v.parse(MessageReplySchema, await res.json()).message).toBe(
      'This API token is off: its IP whitelist is empty.',
    )
  })

  it("prices an API token's orders from the catalogue as it is now, whoever changed it", async () => {
    // A token's call has no session read to bring the content version: the order reads it.
    const ip = '203.0.113.7'
    const { apiToken } = await reseller(ip)
    const pkg = await packageId(ctx, 27, 'iTunes $10')
    const totalOf = async () => {
      const res = await call(ctx.app, 'automated/get/packages', {
        token: apiToken,
        ip,
        fields: { package_id: pkg, qty: '1' },
      })
      expect(res.status, await res.clone().text()).toBe(200)
      return ((await res.json()) as { data: { total_price: number } }).data.total_price
    }
    // The first order keeps the item's rows in memory (services/catalogue-rows.ts).
    expect(await totalOf()).toBe(10.712)
    const before = await setPackagePrice(ctx, pkg, 20_000_000)
    try {
      // 20 + 3 %.
      expect(await totalOf()).toBe(20.6)
    } finally {
      await setPackagePrice(ctx, pkg, before)
    }
  })

  it('reads and orders with an API token, and cannot change the account', async () => {
    const ip = '203.0.113.7'
    const { token, user, apiToken } = await reseller(ip, '50')
    const as = (path: string, fields?: Record<string, string>, query = '') =>
      call(ctx.app, `${path}${query}`, { token: apiToken, ip, fields })

    expect((await as('orders')).status).toBe(200)
    const placed = await as('automated/get/packages', {
      package_id: await packageId(ctx, 27, 'iTunes $10'),
      qty: '1',
    })
    expect(placed.status, await placed.clone().text()).toBe(200)
    const orderId = ((await placed.json()) as { data: { id: number } }).data.id
    expect((await as(`orders/${orderId}`)).status).toBe(200)
    expect((await as('player_number/info', undefined, '?product_id=1')).status).toBe(200)

    const before = await rowOf(user.id)
    const forbidden = [
      as('change/locale', { locale: 'ar' }),
      as('change-currency', { currency: 'LBP' }),
      as('user/token', { token: newToken(), ip_whitelist: '0.0.0.0/0' }),
      as('logout', {}),
      as('payment-logs'),
    ]
    for (const res of await Promise.all(forbidden)) {
      expect(res.status).toBe(403)
      expect(v.parse(MessageReplySchema, await res.json()).message).toBe(
        'An API token cannot do this. Sign in to the store to change your account.',
      )
    }
    const after = await rowOf(user.id)
    expect(after).toEqual(before)
    // The storefront's session was not signed out, and it still changes the account.
    const own = await call(ctx.app, 'profile', { token })
    expect(own.status).toBe(200)
    expect((await postForm(ctx.app, 'change/locale', { locale: 'ar' }, { token })).status).toBe(200)
  })

  it('an unknown token, or a disabled account, is 401', async () => {
    const unknown = await call(ctx.app, 'profile', { token: newToken(), ip: '203.0.113.7' })
    expect(unknown.status).toBe(401)
    expect(unknown.headers.get('www-authenticate')).toBe('Bearer')
    expect(v.parse(MessageReplySchema, await unknown.json()).message).toBe(
      'The API token is not valid.',
    )

    const { user, apiToken } = await reseller('203.0.113.7')
    await ctx.db
      .updateTable('users')
      .set({ disabled_at: ctx.clock.now().toISOString() })
      .where('id', '=', user.id)
      .execute()
    const disabled = await call(ctx.app, 'profile', { token: apiToken, ip: '203.0.113.7' })
    expect(disabled.status).toBe(401)
    // The player search stays open to everyone: an unknown token makes it anonymous.
    const lookup = await call(ctx.app, 'th-p-apis/1?number=5123456789', {
      token: apiToken,
      ip: '203.0.113.7',
    })
    expect(lookup.status).toBe(200)
  })

  it('counts calls per token per minute, from whitelisted addresses only', async () => {
    const app = ctx.appWith({
      rateLimits: { ...ctx.config.rateLimits, apiTokenPerMinute: 3 },
    })
    const { apiToken } = await reseller('203.0.113.7')
    const other = await reseller('203.0.113.7')
    const from = (ip: string, token = apiToken) => call(app, 'profile', { token, ip })

    ctx.clock.advance(60_000 - (ctx.clock.now().getTime() % 60_000) + 1000)
    // Refused addresses spend nothing of the owner's allowance.
    for (let i = 0; i < 5; i++) expect((await from('198.18.0.1')).status).toBe(403)
    for (let i = 0; i < 3; i++) expect((await from('203.0.113.7')).status).toBe(200)
    const limited = await from('203.0.113.7')
    expect(limited.status).toBe(429)
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0)
    expect((await from('203.0.113.7', other.apiToken)).status).toBe(200)

    ctx.clock.advance(60_000)
    expect((await from('203.0.113.7')).status).toBe(200)
  })

  it('keeps session tokens working as before', async () => {
    const { token, user } = await customer(ctx, { balance: '12.5' })
    const res = await call(ctx.app, 'profile', { token })
    expect(v.parse(ProfileReplySchema, await res.json()).data.balance).toBe(12.5)
    expect(await balanceOf(ctx, user.id)).toBe(toMicros('12.5'))
  })
})
