import { randomBytes } from 'node:crypto'
import * as v from 'valibot'
import { expect, it } from 'vitest'
import { ProfileReplySchema } from '../../src/contract/profile'
import { PlaceOrderReplySchema } from '../../src/contract/orders'
import {
  V2AddReplySchema,
  V2BalanceReplySchema,
  V2ErrorSchema,
  V2MultiStatusReplySchema,
  V2CancelReplySchema,
  V2OrderStatusSchema,
  V2RefillManyReplySchema,
  V2RefillStatusManyReplySchema,
  V2ServicesReplySchema,
  type V2Service,
} from '../../src/contract/reseller'
import { toMicros } from '../../src/domain/money'
import type { App } from '../app'
import type { CurrencyCode, UserType } from '../db/schema'
import { postForm } from '../test/accounts'
import { runOperator } from '../test/cli'
import { describeEachDatabase } from '../test/context'
import { balanceOf, customer, get, ledgerOf, order, packageId } from '../test/orders'
import { completeOrder, cancelOrder } from '../services/order-status'
import { parseServiceId, serviceIdOf } from '../services/reseller'

const IP = '203.0.113.7'
const socket = (remoteAddress: string) => ({ incoming: { socket: { remoteAddress } } })

const newToken = () => {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'
  return `4412|${[...randomBytes(40)].map((b) => alphabet[b % 62]).join('')}`
}

/**
 * POST /api/v2 as a panel sends it, from an address: a urlencoded form (a panel's PHP `Api`
 * class with curl, a Python port with `requests.post(url, data=...)`), or JSON to `/api/v2/`
 * (a Node SDK whose axios `baseURL` is the API's address, calling `post('/', {...})`).
 */
function v2(
  app: App,
  fields: Record<string, string>,
  { ip = IP, json = false, query = '' }: { ip?: string; json?: boolean; query?: string } = {},
) {
  return app.request(
    `/api/v2${json ? '/' : ''}${query}`,
    {
      method: 'POST',
      body: json ? JSON.stringify(fields) : new URLSearchParams(fields).toString(),
      headers: {
        'content-type': json ? 'application/json' : 'application/x-www-form-urlencoded',
      },
    },
    socket(ip),
  )
}

async function errorOf(res: Response, status: number) {
  expect(res.status, await res.clone().text()).toBe(status)
  return v.parse(V2ErrorSchema, await res.json()).error
}

describeEachDatabase('reseller API v2', (ctx) => {
  async function reseller(
    options: { balance?: string; type?: UserType; currency?: CurrencyCode } = {},
  ) {
    const account = await customer(ctx, { balance: '100', ...options })
    const key = newToken()
    const saved = await postForm(
      ctx.app,
      'user/token',
      { token: key, ip_whitelist: `${IP}\n2001:db8::/32` },
      { token: account.token },
    )
    expect(saved.status).toBe(200)
    const call = (fields: Record<string, string>, opts?: Parameters<typeof v2>[2]) =>
      v2(ctx.app, { key, ...fields }, opts)
    return { ...account, key, call }
  }

  async function services(call: (f: Record<string, string>) => Response | Promise<Response>) {
    const res = await call({ action: 'services' })
    expect(res.status).toBe(200)
    return v.parse(V2ServicesReplySchema, await res.json())
  }

  const socialId = async (productId: number, type: string) => {
    const row = await ctx.db
      .selectFrom('product_additional_services')
      .select('id')
      .where('product_id', '=', productId)
      .where('type', '=', type)
      .executeTakeFirstOrThrow()
    return row.id
  }

  it('maps service ids by kind: 1 product, 2 package, 3 social service', () => {
    expect(serviceIdOf('product', 24)).toBe(124)
    expect(serviceIdOf('package', 119)).toBe(2119)
    expect(serviceIdOf('social', 5)).toBe(35)
    expect(parseServiceId('2119')).toEqual({ kind: 'package', id: 119 })
    expect(parseServiceId('124')).toEqual({ kind: 'product', id: 24 })
    for (const bad of ['', '1', '2', '20', '4119', '0124', 'abc', '2.5', '-21', '21 '])
      expect(parseServiceId(bad), bad).toBeUndefined()
  })

  it('services lists what can be bought, priced per 1000 by the storefront rule', async () => {
    const { call } = await reseller()
    const list = await services(call)
    const byId = new Map(list.map((s) => [s.service, s]))
    const uc60 = Number(await packageId(ctx, 1, '60 UC'))

    // 60 UC: 0.89 + 5 % = 0.9345 a unit, 934.5 for 1000.
    expect(byId.get(serviceIdOf('package', uc60))).toEqual({
      service: serviceIdOf('package', uc60),
      name: '60 UC',
      type: 'Default',
      category: 'PUBG Mobile UC',
      rate: '934.5',
      min: '1',
      max: '100000000',
      refill: false,
      cancel: false,
      dripfeed: false,
    } satisfies V2Service)
    // USDT (crypto): the second price above 100 units, 1.015 + 1.5 %; 10 to 5000 units.
    expect(byId.get(serviceIdOf('product', 24))).toMatchObject({
      category: 'USDT (TRC20)',
      rate: '1030.225',
      min: '10',
      max: '5000',
    })
    // A social service is one service: Instagram likes at 0.002 + 10 %, at least 100.
    const likes = await socialId(17, 'LIKES')
    expect(byId.get(serviceIdOf('social', likes))).toMatchObject({
      name: 'Instagram Services — LIKES',
      category: 'Instagram Services',
      rate: '2.2',
      min: '100',
    })
    // Free Fire packages are one unit an order.
    const diamonds = Number(await packageId(ctx, 2, '100 Diamonds'))
    expect(byId.get(serviceIdOf('package', diamonds))).toMatchObject({
      type: 'Package',
      min: '1',
      max: '1',
    })

    // Not listed: a product bought through its packages or its social services, an unavailable
    // package, a product that cannot be bought, a link to another product.
    const unavailable = Number(await packageId(ctx, 3, '2,400 CP'))
    const osn = await ctx.db
      .selectFrom('packages')
      .select('id')
      .where('product_id', '=', 43)
      .execute()
    const link = await ctx.db
      .selectFrom('packages')
      .select('id')
      .where('merge_to', 'is not', null)
      .executeTakeFirstOrThrow()
    for (const id of [
      serviceIdOf('product', 1),
      serviceIdOf('product', 17),
      serviceIdOf('package', unavailable),
      ...osn.map((p) => serviceIdOf('package', p.id)),
      serviceIdOf('package', link.id),
    ])
      expect(byId.has(id), String(id)).toBe(false)
    expect(new Set(list.map((s) => s.service)).size).toBe(list.length)
  })

  it('services are priced for the account: company prices, LBP, names in Arabic', async () => {
    const company = await reseller({ type: 'COMPANY' })
    const lbp = await reseller({ currency: 'LBP' })
    const uc60 = serviceIdOf('package', Number(await packageId(ctx, 1, '60 UC')))
    const find = (list: V2Service[]) => list.find((s) => s.service === uc60)
    // A company account pays the company price (no company percentage on this package).
    expect(find(await services(company.call))?.rate).toBe('890')
    // 934.5 USD at 89,500 pounds, in whole pounds.
    expect(find(await services(lbp.call))?.rate).toBe('83637750')
    const arabic = await company.call({ action: 'services' }, { query: '?local=ar' })
    expect(find(v.parse(V2ServicesReplySchema, await arabic.json()))).toMatchObject({
      category: 'شدات ببجي موبايل',
    })
  })

  it('add places the storefront order: same price, same debit, same ledger', async () => {
    const panel = await reseller()
    const shop = await customer(ctx, { balance: '100' })
    const uc60 = await packageId(ctx, 1, '60 UC')
    const service = String(serviceIdOf('package', Number(uc60)))

    // The player is looked up on the way, as the storefront's form does before it orders.
    const added = await panel.call({
      action: 'add',
      service,
      link: '5123456789',
      quantity: '2',
    })
    expect(added.status, await added.clone().text()).toBe(200)
    const { order: id } = v.parse(V2AddReplySchema, await added.json())

    const lookup = await get(ctx.app, 'th-p-apis/1?number=5123456789&product_id=1', shop.token)
    expect(lookup.status).toBe(200)
    const placed = await order(ctx.app, shop.token, {
      package_id: uc60,
      qty: '2',
      player_number: '5123456789',
    })
    const storefront = v.parse(PlaceOrderReplySchema, await placed.json())

    const row = await ctx.db
      .selectFrom('orders')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow()
    expect(row).toMatchObject({
      user_id: panel.user.id,
      package_id: Number(uc60),
      quantity: 2,
      total_price: toMicros(storefront.data.total_price),
      unit_price: toMicros(storefront.data.unit_price ?? 0),
      player_number: '5123456789',
      player_name: 'Player 5123456789',
      status: 'WAITING',
    })
    expect(row.total_price).toBe(toMicros('1.869'))
    expect(await balanceOf(ctx, panel.user.id)).toBe(toMicros('98.131'))
    const ledger = await ledgerOf(ctx, panel.user.id)
    expect(ledger.debitsTotal).toBe(ledger.ordersTotal)
    expect(ledger.debits).toHaveLength(1)

    const balance = v.parse(
      V2BalanceReplySchema,
      await (await panel.call({ action: 'balance' })).json(),
    )
    expect(balance).toEqual({ balance: '98.131', currency: 'USD' })
    const profile = await get(ctx.app, 'profile', panel.token)
    expect(v.parse(ProfileReplySchema, await profile.json()).data.balance).toBe(98.131)

    // A social service: the link is the post, the service sets the tab.
    const likes = await socialId(17, 'LIKES')
    const social = await panel.call(
      {
        action: 'add',
        service: String(serviceIdOf('social', likes)),
        link: 'https://instagram.com/p/abc',
        quantity: '1000',
      },
      { json: true },
    )
    const socialOrder = v.parse(V2AddReplySchema, await social.json()).order
    expect(
      await ctx.db
        .selectFrom('orders')
        .select(['service_type', 'social_link', 'total_price'])
        .where('id', '=', socialOrder)
        .executeTakeFirstOrThrow(),
    ).toEqual({
      service_type: 'LIKES',
      social_link: 'https://instagram.com/p/abc',
      total_price: toMicros('2.2'),
    })
    expect(await balanceOf(ctx, panel.user.id)).toBe(toMicros('95.931'))
  })

  it('status tells each own order, and nothing of anyone else’s', async () => {
    const panel = await reseller()
    const other = await customer(ctx, { balance: '100' })
    const usdt = String(serviceIdOf('product', 24))
    const add = async () => {
      const res = await panel.call({
        action: 'add',
        service: usdt,
        link: 'TXwallet',
        quantity: '10',
      })
      return v.parse(V2AddReplySchema, await res.json()).order
    }
    const [first, second, third] = [await add(), await add(), await add()]
    const theirs = v.parse(
      PlaceOrderReplySchema,
      await (
        await order(ctx.app, other.token, {
          product_id: '24',
          qty: '10',
          wallet_address: 'TXother',
        })
      ).json(),
    ).data.id

    const one = await panel.call({ action: 'status', order: String(first) })
    expect(v.parse(V2OrderStatusSchema, await one.json())).toEqual({
      charge: '10.4545',
      start_count: '0',
      status: 'Pending',
      remains: '10',
      currency: 'USD',
    })

    await completeOrder(ctx.db, first, { codes: ['TX-1'], now: ctx.clock.now() })
    await cancelOrder(ctx.db, second, { reason: 'test', lbpRate: 89_500, now: ctx.clock.now() })
    const many = await panel.call({
      action: 'status',
      orders: `${first}, ${second},${third},${theirs},999999,abc`,
    })
    const unknown = { error: 'Incorrect order ID.' }
    expect(v.parse(V2MultiStatusReplySchema, await many.json())).toEqual({
      [first]: {
        charge: '10.4545',
        start_count: '0',
        status: 'Completed',
        remains: '0',
        currency: 'USD',
      },
      [second]: {
        charge: '10.4545',
        start_count: '0',
        status: 'Canceled',
        remains: '10',
        currency: 'USD',
      },
      [third]: {
        charge: '10.4545',
        start_count: '0',
        status: 'Pending',
        remains: '10',
        currency: 'USD',
      },
      [theirs]: unknown,
      '999999': unknown,
      abc: unknown,
    })
    expect(await errorOf(await panel.call({ action: 'status', order: String(theirs) }), 200)).toBe(
      'Incorrect order ID.',
    )

    // Completed but for 4 of the 10 by the operator: Partial, the 4 refunded once.
    const before = await balanceOf(ctx, panel.user.id)
    const done = await runOperator(ctx, 'orders:complete', String(third), '--remains', '4')
    expect(done.stdout).toContain(`is COMPLETED but for 4; 4.1818 went back to`)
    expect((await runOperator(ctx, 'orders:complete', String(third), '--remains', '4')).code).toBe(
      1,
    )
    expect(await balanceOf(ctx, panel.user.id)).toBe(before + 4_181_800n)
    const partial = await panel.call({ action: 'status', orders: String(third) })
    expect(v.parse(V2MultiStatusReplySchema, await partial.json())).toEqual({
      [third]: {
        charge: '10.4545',
        start_count: '0',
        status: 'Partial',
        remains: '4',
        currency: 'USD',
      },
    })
    expect(await errorOf(await panel.call({ action: 'status' }), 200)).toBe('Incorrect order ID.')
    const tooMany = Array.from({ length: 101 }, (_, i) => String(i + 1)).join(',')
    expect(await errorOf(await panel.call({ action: 'status', orders: tooMany }), 200)).toBe(
      'Ask for at most 100 orders at a time.',
    )
  })

  it('add with a bad service or quantity answers an error and debits nothing', async () => {
    const panel = await reseller({ balance: '20' })
    const before = await balanceOf(ctx, panel.user.id)
    const unavailable = await packageId(ctx, 3, '2,400 CP')
    const likes = await socialId(17, 'LIKES')
    const cases: [Record<string, string>, number, string][] = [
      [{}, 200, 'Incorrect service ID.'],
      [{ service: 'abc', quantity: '1' }, 200, 'Incorrect service ID.'],
      [{ service: '999999', quantity: '1' }, 200, 'Incorrect service ID.'],
      [{ service: '2999999', quantity: '1' }, 200, 'Incorrect service ID.'],
      // Product 1 is bought through its packages, product 17 through its services.
      [{ service: '11', quantity: '1' }, 200, 'Incorrect service ID.'],
      [{ service: '117', quantity: '100', link: 'x' }, 200, 'Incorrect service ID.'],
      [
        { service: `2${unavailable}`, quantity: '1', link: '123456' },
        200,
        'This item is currently unavailable.',
      ],
      [
        { service: '124', quantity: 'ten', link: 'TXwallet' },
        200,
        'Quantity must be a whole number.',
      ],
      [
        { service: '124', quantity: '5', link: 'TXwallet' },
        200,
        'Quantity must be greater than or equal to 10',
      ],
      [
        { service: '124', quantity: '5001', link: 'TXwallet' },
        200,
        'Quantity must be less than or equal to 5000',
      ],
      [{ service: `3${likes}`, quantity: '100' }, 200, 'Link is required.'],
      [
        { service: '124', quantity: '100', link: 'TXwallet' },
        200,
        'Your balance is not enough for this order.',
      ],
    ]
    for (const [fields, status, message] of cases) {
      const error = await errorOf(await panel.call({ action: 'add', ...fields }), status)
      expect(error, JSON.stringify(fields)).toBe(message)
    }
    // A field named like a built-in property of objects, and not text: refused, in the v2 shape.
    const odd = JSON.parse(
      '{"action":"add","service":"124","quantity":"100","link":"TXwallet","constructor":{}}',
    ) as Record<string, string>
    expect(await errorOf(await panel.call(odd, { json: true }), 200)).toBe(
      'constructor is not valid',
    )
    expect(await balanceOf(ctx, panel.user.id)).toBe(before)
    const ledger = await ledgerOf(ctx, panel.user.id)
    expect(ledger.orders).toEqual([])
    expect(ledger.logs).toEqual([])
  })

  it('answers the key, the whitelist and the limits in the v2 shape', async () => {
    const panel = await reseller()
    const session = await customer(ctx)
    for (const key of [undefined, session.token, newToken()]) {
      const res = await v2(ctx.app, { action: 'balance', ...(key ? { key } : {}) })
      expect(await errorOf(res, 200)).toBe('The API token is not valid.')
    }
    expect(await errorOf(await panel.call({ action: 'balance' }, { ip: '198.18.0.1' }), 200)).toBe(
      "This API token may not be used from 198.18.0.1. Add the address to the token's IP whitelist.",
    )
    expect((await panel.call({ action: 'balance' }, { ip: '2001:db8:5::1' })).status).toBe(200)
    expect(await errorOf(await panel.call({ action: 'refund' }), 200)).toBe(
      'Incorrect request: action must be services, add, status, balance, refill, refill_status or cancel.',
    )
    expect(await errorOf(await panel.call({}), 200)).toMatch(/^Incorrect request/)
    const json = await panel.call({ action: 'BALANCE' }, { json: true })
    expect(v.parse(V2BalanceReplySchema, await json.json())).toEqual({
      balance: '100',
      currency: 'USD',
    })
    const arabic = await panel.call({ action: 'nothing' }, { query: '?local=ar' })
    expect(await errorOf(arabic, 200)).toMatch(/^طلب غير صحيح/)

    const limited = ctx.appWith({ rateLimits: { ...ctx.config.rateLimits, apiTokenPerMinute: 2 } })
    ctx.clock.advance(60_000 - (ctx.clock.now().getTime() % 60_000) + 1000)
    for (let i = 0; i < 2; i++)
      expect((await v2(limited, { key: panel.key, action: 'balance' })).status).toBe(200)
    const over = await v2(limited, { key: panel.key, action: 'balance' })
    expect(await errorOf(over, 429)).toMatch(/^Too many requests/)
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0)
  })

  it('answers every action of the three panel clients with 200, refusals as {"error"}', async () => {
    const panel = await reseller({ balance: '50' })
    const usdt = String(serviceIdOf('product', 24))
    for (const json of [false, true]) {
      // What the clients do with a reply: PHP json_decode()s it whatever the status; Python's
      // raise_for_status() and axios throw on anything but 2xx, losing the sentence.
      const call = async (fields: Record<string, string>) => {
        const res = await panel.call(fields, { json })
        expect(res.status, `${JSON.stringify(fields)} ${json}`).toBe(200)
        return (await res.json()) as unknown
      }
      const list = v.parse(V2ServicesReplySchema, await call({ action: 'services' }))
      expect(list.every((service) => !service.dripfeed && !service.refill && !service.cancel)).toBe(
        true,
      )
      const { order } = v.parse(
        V2AddReplySchema,
        await call({ action: 'add', service: usdt, link: 'TXwallet', quantity: '10' }),
      )
      expect(
        v.parse(V2OrderStatusSchema, await call({ action: 'status', order: String(order) })),
      ).toMatchObject({ start_count: '0', status: 'Pending', remains: '10' })
      expect(await call({ action: 'status', order: '999999' })).toEqual({
        error: 'Incorrect order ID.',
      })
      expect(await call({ action: 'add', service: '999999', quantity: '1' })).toEqual({
        error: 'Incorrect service ID.',
      })
      // Neither refill nor cancel is offered: each order refused, in the shapes panels read.
      expect(await call({ action: 'refill', order: String(order) })).toEqual({
        error: 'This order cannot be refilled.',
      })
      expect(await call({ action: 'refill', order: '999999' })).toEqual({
        error: 'Incorrect order ID.',
      })
      expect(
        v.parse(
          V2RefillManyReplySchema,
          await call({ action: 'refill', orders: `${order},999999` }),
        ),
      ).toEqual([
        { order, refill: { error: 'This order cannot be refilled.' } },
        { order: 999999, refill: { error: 'Incorrect order ID.' } },
      ])
      expect(
        v.parse(V2CancelReplySchema, await call({ action: 'cancel', orders: `${order},abc` })),
      ).toEqual([
        { order, cancel: { error: 'This order cannot be canceled.' } },
        { order: 'abc', cancel: { error: 'Incorrect order ID.' } },
      ])
      expect(await call({ action: 'refill_status', refill: '7' })).toEqual({
        error: 'Incorrect refill ID.',
      })
      expect(
        v.parse(
          V2RefillStatusManyReplySchema,
          await call({ action: 'refill_status', refills: '7,8' }),
        ),
      ).toEqual([
        { refill: 7, status: { error: 'Incorrect refill ID.' } },
        { refill: 8, status: { error: 'Incorrect refill ID.' } },
      ])
      expect(await call({ action: 'balance' })).toEqual({ balance: '39.5455', currency: 'USD' })
      // The cancel refused: the order still waits, and nothing was refunded.
      expect(
        v.parse(V2OrderStatusSchema, await call({ action: 'status', order: String(order) })).status,
      ).toBe('Pending')
      await cancelOrder(ctx.db, order, { reason: 'test', lbpRate: 89_500, now: ctx.clock.now() })
    }
  })

  it('reads a call however it comes: the key, then the action, a field not text as not sent', async () => {
    const panel = await reseller({ balance: '50' })
    const send = (body: BodyInit, type?: string) =>
      ctx.app.request(
        '/api/v2',
        { method: 'POST', body, headers: type ? { 'content-type': type } : {} },
        socket(IP),
      )
    const json = (fields: Record<string, unknown>) =>
      send(JSON.stringify(fields), 'application/json')
    // A bad key is said before a bad action.
    for (const key of [undefined, ' ', ['x'], null, 'not a token'])
      expect(await errorOf(await json({ key, action: 'nothing' }), 200), String(key)).toBe(
        'The API token is not valid.',
      )
    // Key and action are trimmed, the action read in any case; one that is not text is none.
    const balance = await json({ key: ` ${panel.key} `, action: ' Balance ' })
    expect(v.parse(V2BalanceReplySchema, await balance.json())).toEqual({
      balance: '50',
      currency: 'USD',
    })
    for (const action of [['balance'], { balance: 1 }, null, 3])
      expect(await errorOf(await json({ key: panel.key, action }), 200)).toMatch(
        /^Incorrect request: action must be/,
      )
    // JSON numbers are text; a list where an id goes is no id, a null list is no list.
    const call = (fields: Record<string, unknown>) => json({ key: panel.key, ...fields })
    const added = await call({ action: 'add', service: 124, quantity: 10, link: 'TXwallet' })
    const { order } = v.parse(V2AddReplySchema, await added.json())
    const status = await call({ action: 'status', order, orders: null })
    expect(v.parse(V2OrderStatusSchema, await status.json())).toMatchObject({ remains: '10' })
    expect(await errorOf(await call({ action: 'status', order: [order] }), 200)).toBe(
      'Incorrect order ID.',
    )
    expect(await errorOf(await call({ action: 'add', service: [124], quantity: 10 }), 200)).toBe(
      'Incorrect service ID.',
    )
    // Multipart, as some clients send it, with a field no action reads.
    const form = new FormData()
    for (const [name, value] of Object.entries({ key: panel.key, action: 'status', extra: 'x' }))
      form.set(name, value)
    form.set('orders', `${order},abc`)
    expect(v.parse(V2MultiStatusReplySchema, await (await send(form)).json())).toEqual({
      [order]: expect.objectContaining({ status: 'Pending' }),
      abc: { error: 'Incorrect order ID.' },
    })
    // A body that cannot be read is refused in the v2 shape, before its key is looked at.
    for (const body of ['{"key":', '[1]'])
      expect(await errorOf(await send(body, 'application/json'), 200)).toBe(
        'The request could not be read.',
      )
    const nul = new URLSearchParams({ key: panel.key, action: 'balance', link: 'a\0b' })
    expect(
      await errorOf(await send(nul.toString(), 'application/x-www-form-urlencoded'), 200),
    ).toMatch(/\(NUL\)/)
    expect(await balanceOf(ctx, panel.user.id)).toBe(toMicros('39.5455'))
  })

  it('refuses drip-feed, custom comments and a GET, debiting nothing', async () => {
    const panel = await reseller({ balance: '50' })
    const likes = String(serviceIdOf('social', await socialId(17, 'LIKES')))
    const post = {
      action: 'add',
      service: likes,
      link: 'https://instagram.com/p/1',
      quantity: '100',
    }
    for (const [extra, message] of [
      [{ runs: '5', interval: '30' }, 'Drip-feed is not available for this service.'],
      [{ runs: '5' }, 'Drip-feed is not available for this service.'],
      [{ comments: 'nice\ngreat' }, 'Custom comments are not available for this service.'],
    ] as const)
      expect(await errorOf(await panel.call({ ...post, ...extra }), 200)).toBe(message)
    // Blank drip-feed fields, as some clients always send them, are no request for it.
    const placed = await panel.call({ ...post, runs: '', interval: '' })
    expect(v.parse(V2AddReplySchema, await placed.json()).order).toBeGreaterThan(0)
    expect(await balanceOf(ctx, panel.user.id)).toBe(toMicros('49.78'))

    const get = await ctx.app.request(
      `/api/v2?key=${encodeURIComponent(panel.key)}&action=balance`,
      {},
      socket(IP),
    )
    expect(await errorOf(get, 200)).toBe(
      'The API takes POST requests, with key and action in the body.',
    )
    expect(
      await errorOf(
        await panel.call({ action: 'nothing' }, { query: '?local=ar', json: true }),
        200,
      ),
    ).toMatch(/^طلب غير صحيح/)
  })
})
