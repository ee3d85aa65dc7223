import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { MessageReplySchema, ValidationErrorReplySchema } from '../../src/contract/common'
import {
  OrderPageSchema,
  OrderReplySchema,
  PlaceOrderReplySchema,
  PlayerLookupReplySchema,
  PlayerNumberReplySchema,
  StatusBulkReplySchema,
} from '../../src/contract/orders'
import { ProviderError, type Provider, type ProviderOrderStatus } from '../adapters/provider'
import { createLocalProvider } from '../adapters/provider-local'
import { createApp } from '../app'
import { backgroundSettled } from '../db/background'
import { cancelOrder, completeOrder } from '../services/order-status'
import { describeEachDatabase, testPasswords, type TestContext } from '../test/context'
import {
  balanceOf,
  customer,
  get,
  ledgerOf,
  order,
  packageId,
  setPackagePrice,
} from '../test/orders'

const M = (n: string) => BigInt(Math.round(Number(n) * 1_000_000))

describeEachDatabase('ordering API', (ctx) => {
  /** The suite's app with another provider. */
  const appWithProvider = (provider: Provider) =>
    createApp({
      db: ctx.db,
      config: ctx.config,
      clock: ctx.clock,
      passwords: testPasswords,
      provider,
    })

  const placed = async (res: Response) => {
    expect(res.status, await res.clone().text()).toBe(200)
    return v.parse(PlaceOrderReplySchema, await res.json())
  }

  it('places an order at the price the server computes, debits it once and logs it', async () => {
    const { token, user } = await customer(ctx, { balance: '100' })
    const pkg = await packageId(ctx, 27, 'iTunes $10')
    // Money fields from the client are not read.
    const res = await order(ctx.app, token, {
      package_id: pkg,
      quantity: '2',
      total_price: '0.01',
      price: '0.01',
    })
    const reply = await placed(res)
    // 10.40 + 3 % = 10.712 a card.
    expect(reply.message).toBe('Your order has been placed.')
    expect(reply.balance).toBe(78.576)
    expect(reply.data).toMatchObject({
      product_name: 'iTunes Gift Card (US)',
      package_name: 'iTunes $10',
      quantity: 2,
      total_price: 21.424,
      currency: 'USD',
      status: 'WAITING',
      item_codes: [],
      user: { username: user.username, phone_number: user.phone_number },
    })
    expect(reply.data.date).toMatch(/^\d{4}-\d{2}-\d{2}$/)
    expect(reply.data.time).toMatch(/^\d{2}:\d{2}$/)
    expect(reply.data.product_image).toBeTruthy()

    expect(await balanceOf(ctx, user.id)).toBe(78_576_000n)
    const ledger = await ledgerOf(ctx, user.id)
    expect(ledger.logs).toEqual([
      {
        status: 'Discounted',
        name: `Order #${reply.data.id}: iTunes Gift Card (US) — iTunes $10`,
        name_ar: `الطلب رقم ${reply.data.id}: بطاقة آيتونز (أمريكي) — آيتونز 10$`,
        previous_balance: 100_000_000n,
        value: 21_424_000n,
        current_balance: 78_576_000n,
      },
    ])
    // Handed to the (local) provider after the commit; its answer is recorded after the reply.
    await backgroundSettled(ctx.db)
    const row = await ctx.db
      .selectFrom('orders')
      .select(['provider_ref', 'unit_price'])
      .where('id', '=', reply.data.id)
      .executeTakeFirstOrThrow()
    expect(row).toEqual({ provider_ref: `local-${reply.data.id}`, unit_price: 10_712_000n })
  })

  it('records each hand-over of orders placed at once as its own provider answered it', async () => {
    const provider: Provider = {
      ...createLocalProvider(),
      async placeOrder(o) {
        return o.quantity === 2
          ? { ref: null, status: 'FAILED', detail: 'no stock' }
          : { ref: `P-${o.id}`, status: 'WAITING' }
      },
    }
    const app = appWithProvider(provider)
    const { token } = await customer(ctx, { balance: '1000' })
    const card = await packageId(ctx, 27, 'iTunes $5')
    const quantities = ['1', '2', '1', '1', '2', '1', '1', '1']
    // Answered together: their hand-overs are recorded together (db/turn-batch.ts).
    const replies = await Promise.all(
      quantities.map(async (quantity) =>
        placed(await order(app, token, { package_id: card, quantity })),
      ),
    )
    await backgroundSettled(ctx.db)
    const rows = await ctx.db
      .selectFrom('orders')
      .select(['id', 'status', 'provider_ref'])
      .where(
        'id',
        'in',
        replies.map((r) => r.data.id),
      )
      .orderBy('id')
      .execute()
    expect(rows).toEqual(
      replies
        .map((r) => r.data)
        .sort((a, b) => a.id - b.id)
        .map(({ id, quantity }) =>
          quantity === 2
            ? { id, status: 'FAILED', provider_ref: null }
            : { id, status: 'WAITING', provider_ref: `P-${id}` },
        ),
    )
  })

  it('prices every order from the catalogue as it is now, whoever changed it', async () => {
    const { token } = await customer(ctx, { balance: '100' })
    const product = 27
    const pkg = await packageId(ctx, product, 'iTunes $10')
    // The first order keeps the item's rows in memory (services/catalogue-rows.ts).
    expect((await placed(await order(ctx.app, token, { package_id: pkg }))).data.total_price).toBe(
      10.712,
    )
    const setProduct = (available: 0 | 1) =>
      ctx.db
        .updateTable('products')
        .set({ is_available: available })
        .where('id', '=', product)
        .execute()
    // As the operator CLI or a maintenance shell would, behind the server's back.
    const price = await setPackagePrice(ctx, pkg, 20_000_000)
    try {
      // 20 + 3 %.
      const again = await placed(await order(ctx.app, token, { package_id: pkg }))
      expect(again.data.total_price).toBe(20.6)
      await setProduct(0)
      expect((await order(ctx.app, token, { package_id: pkg })).status).toBe(422)
    } finally {
      // The other tests buy from the seeded catalogue.
      await setPackagePrice(ctx, pkg, price)
      await setProduct(1)
    }
  })

  it('prices company accounts, token products, social services, crypto and LBP wallets', async () => {
    const company = await customer(ctx, { type: 'COMPANY' })
    const person = await customer(ctx, { balance: '1000' })
    const tokens = { product_id: '44', quantity: '10000', player_number: '12345' }
    // 0.0001 a token: a company pays + 3 %; a customer + 5 % and, on number 6, + 3 % too:
    // 0.00010815 a token exactly, so 10,000 cost 1.0815 (the total is rounded once, not the
    // unit price first, which would charge 1.08).
    expect((await placed(await order(ctx.app, company.token, tokens))).data.total_price).toBe(1.03)
    expect((await placed(await order(ctx.app, person.token, tokens))).data.total_price).toBe(1.0815)

    // Instagram LIKES: the service's price (0.002 + 10 %), its type as stored.
    const likes = await placed(
      await order(ctx.app, person.token, {
        product_id: '17',
        service_type: 'likes',
        quantity: '100',
        social_link: 'https://instagram.com/p/abc',
      }),
    )
    expect(likes.data).toMatchObject({ total_price: 0.22, service_type: 'LIKES' })
    // COMMENTS has its own minimum (10), below the product's 100.
    const comments = await placed(
      await order(ctx.app, person.token, {
        product_id: '17',
        service_type: 'COMMENTS',
        quantity: '10',
        social_link: 'https://instagram.com/p/abc',
      }),
    )
    expect(comments.data.total_price).toBe(0.55)

    // USDT: 1.03 + 1.5 % up to 100 units, the second price 1.015 + 1.5 % above.
    const usdt = (quantity: string) =>
      order(ctx.app, person.token, { product_id: '24', quantity, wallet_address: 'TXyz123' })
    expect((await placed(await usdt('10'))).data).toMatchObject({
      total_price: 10.4545,
      wallet_address: 'TXyz123',
    })
    expect((await placed(await usdt('200'))).data.total_price).toBe(206.045)

    // An LBP wallet pays the USD price at LBP_RATE, in whole pounds.
    const lebanese = await customer(ctx, { currency: 'LBP', balance: '1000000' })
    const card = await packageId(ctx, 27, 'iTunes $5')
    const lbp = await placed(await order(ctx.app, lebanese.token, { package_id: card }))
    // 5.25 + 3 % = 5.4075 USD x 89,500 = 483,971.25 LBP.
    expect(lbp.data).toMatchObject({ total_price: 483_971, currency: 'LBP' })
    expect(lbp.balance).toBe(516_029)
  })

  describe('the exact messages, in English and Arabic', () => {
    interface Case {
      name: string
      fields: (ctx: TestContext) => Promise<Record<string, string>>
      balance?: string
      field: string
      en: string
      ar: string
    }
    const pkg = (product: number, name: string) => (c: TestContext) => packageId(c, product, name)
    const cases: Case[] = [
      {
        name: 'no item',
        fields: async () => ({ quantity: '1' }),
        field: 'product_id',
        en: 'Choose a product or a package to order.',
        ar: 'اختر منتجًا أو باقة لتطلبها.',
      },
      {
        name: 'unavailable product',
        fields: async () => ({ product_id: '13' }),
        field: 'product_id',
        en: 'This item is currently unavailable.',
        ar: 'هذا العنصر غير متوفر حاليًا.',
      },
      {
        name: 'product forced unavailable',
        fields: async () => ({ product_id: '43' }),
        field: 'product_id',
        en: 'This item is currently unavailable.',
        ar: 'هذا العنصر غير متوفر حاليًا.',
      },
      {
        name: 'unavailable package',
        fields: async (c) => ({ package_id: await pkg(3, '2,400 CP')(c), player_number: '123' }),
        field: 'package_id',
        en: 'This item is currently unavailable.',
        ar: 'هذا العنصر غير متوفر حاليًا.',
      },
      {
        name: 'a package that only links to another product',
        fields: async (c) => ({ package_id: await pkg(4, 'Roblox Gift Card (code)')(c) }),
        field: 'package_id',
        en: 'This item is currently unavailable.',
        ar: 'هذا العنصر غير متوفر حاليًا.',
      },
      {
        name: 'quantity not a whole number',
        fields: async (c) => ({ package_id: await pkg(27, 'iTunes $5')(c), qty: '2.5' }),
        field: 'qty',
        en: 'Quantity must be a whole number.',
        ar: 'يجب أن تكون الكمية عددًا صحيحًا.',
      },
      {
        name: 'quantity 0',
        fields: async (c) => ({ package_id: await pkg(27, 'iTunes $5')(c), quantity: '0' }),
        field: 'quantity',
        en: 'Quantity must be greater than or equal to 1',
        ar: 'يجب أن تكون الكمية أكبر من أو تساوي 1',
      },
      {
        name: 'quantity below the minimum',
        fields: async () => ({ product_id: '44', quantity: '9999', player_number: '12345' }),
        field: 'quantity',
        en: 'Quantity must be greater than or equal to 10000',
        ar: 'يجب أن تكون الكمية أكبر من أو تساوي 10000',
      },
      {
        name: 'quantity above the maximum',
        fields: async (c) => ({ package_id: await pkg(12, '70 Coins')(c), quantity: '6' }),
        field: 'quantity',
        en: 'Quantity must be less than or equal to 5',
        ar: 'يجب أن تكون الكمية أقل من أو تساوي 5',
      },
      {
        name: 'social service not chosen',
        fields: async () => ({ product_id: '17', quantity: '100', social_link: 'x' }),
        field: 'service_type',
        en: 'Service type is required.',
        ar: 'حقل نوع الخدمة مطلوب.',
      },
      {
        name: 'social service the product does not have',
        fields: async () => ({
          product_id: '21',
          service_type: 'VIEWS',
          quantity: '1000',
          social_link: 'x',
        }),
        field: 'service_type',
        en: 'Choose one of the services of this product.',
        ar: 'اختر إحدى خدمات هذا المنتج.',
      },
      {
        name: 'below the social service minimum',
        fields: async () => ({
          product_id: '17',
          service_type: 'VIEWS',
          quantity: '499',
          social_link: 'x',
        }),
        field: 'quantity',
        en: 'Quantity must be greater than or equal to 500',
        ar: 'يجب أن تكون الكمية أكبر من أو تساوي 500',
      },
      {
        name: 'social link missing',
        fields: async () => ({ product_id: '17', service_type: 'LIKES', quantity: '100' }),
        field: 'social_link',
        en: 'Link is required.',
        ar: 'حقل الرابط مطلوب.',
      },
      {
        name: 'crypto without a wallet address',
        fields: async () => ({ product_id: '25', quantity: '20', wallet_address: '  ' }),
        field: 'wallet_address',
        en: 'Wallet address is required.',
        ar: 'حقل عنوان المحفظة مطلوب.',
      },
      {
        name: 'first requirement missing',
        fields: async (c) => ({ package_id: await pkg(35, '86 Diamonds')(c), server: '2001' }),
        field: 'player_id',
        en: 'Player ID is required.',
        ar: 'حقل معرّف اللاعب مطلوب.',
      },
      {
        name: 'second requirement given as "null"',
        fields: async (c) => ({
          package_id: await pkg(35, '86 Diamonds')(c),
          player_id: '998877',
          server: 'null',
        }),
        field: 'server',
        en: 'Server is required.',
        ar: 'حقل السيرفر مطلوب.',
      },
      {
        name: 'player number not found by the player search',
        fields: async (c) => ({
          package_id: await pkg(1, '60 UC')(c),
          player_number: '5123456789',
        }),
        field: 'player_number',
        en: 'The player number must be correct.',
        ar: 'يجب أن يكون رقم اللاعب صحيحًا.',
      },
      {
        name: 'player number missing where required',
        fields: async (c) => ({ package_id: await pkg(2, '100 Diamonds')(c) }),
        field: 'player_number',
        en: 'Player number is required.',
        ar: 'حقل رقم اللاعب مطلوب.',
      },
      {
        name: 'a field longer than 255 characters',
        fields: async (c) => ({
          package_id: await pkg(27, 'iTunes $5')(c),
          contact_number: '7'.repeat(256),
        }),
        field: 'contact_number',
        en: 'Contact number may not be longer than 255 characters',
        ar: 'يجب ألا يتجاوز طول رقم التواصل 255 حرفًا',
      },
      {
        name: 'balance too low',
        balance: '10.71',
        fields: async (c) => ({ package_id: await pkg(27, 'iTunes $10')(c) }),
        field: 'balance',
        en: 'Your balance is not enough for this order.',
        ar: 'رصيدك غير كافٍ لهذا الطلب.',
      },
    ]
    for (const c of cases) {
      for (const locale of ['en', 'ar'] as const) {
        it(`${c.name} (${locale})`, async () => {
          const { token, user } = await customer(ctx, { balance: c.balance ?? '100' })
          const res = await order(ctx.app, token, await c.fields(ctx), {
            query: `?local=${locale}`,
          })
          expect(res.status, await res.clone().text()).toBe(422)
          const body = v.parse(ValidationErrorReplySchema, await res.json())
          expect(body).toEqual({ message: c[locale], errors: { [c.field]: [c[locale]] } })
          // Nothing changed.
          expect(await balanceOf(ctx, user.id)).toBe(M(c.balance ?? '100'))
          expect((await ledgerOf(ctx, user.id)).logs).toEqual([])
        })
      }
    }
  })

  it('answers 404 for an item that does not exist, in the request language', async () => {
    const { token } = await customer(ctx)
    const product = await order(ctx.app, token, { product_id: '9999' })
    expect(product.status).toBe(404)
    expect(await product.json()).toEqual({ message: 'This product was not found.' })
    const pkg = await order(ctx.app, token, { package_id: '99999' }, { query: '?local=ar' })
    expect(pkg.status).toBe(404)
    expect(await pkg.json()).toEqual({ message: 'هذه الباقة غير موجودة.' })
  })

  it('answers 401 signed out, orders once per call without a key, 400 for a key too long', async () => {
    const { token, user } = await customer(ctx)
    const signedOut = await order(ctx.app, '', { product_id: '44' })
    expect(signedOut.status).toBe(401)
    // Clients of the API other than the storefront may leave the key out: each call orders.
    const tokens = { product_id: '44', quantity: '10000', player_number: '12345' }
    await placed(await order(ctx.app, token, tokens, { key: null }))
    await placed(await order(ctx.app, token, tokens, { key: null }))
    expect((await ledgerOf(ctx, user.id)).logs).toHaveLength(2)
    const longKey = await order(
      ctx.app,
      token,
      { product_id: '44' },
      { key: 'k'.repeat(101), query: '?local=ar' },
    )
    expect(longKey.status).toBe(400)
    expect(v.parse(MessageReplySchema, await longKey.json()).message).toBe(
      'يجب ألا تتجاوز الترويسة Idempotency-Key مئة حرف.',
    )
    expect((await ledgerOf(ctx, user.id)).logs).toHaveLength(2)
  })

  it('gives the first reply again for the same key and request, and refuses a different one', async () => {
    const { token, user } = await customer(ctx, { balance: '50' })
    const card = await packageId(ctx, 27, 'iTunes $5')
    const first = await placed(
      await order(ctx.app, token, { package_id: card, quantity: '1' }, { key: 'k-1' }),
    )
    // qty and quantity are one field; `local` only changes the language of new replies.
    const again = await placed(
      await order(
        ctx.app,
        token,
        { package_id: card, qty: '1' },
        { key: 'k-1', query: '?local=ar' },
      ),
    )
    expect(again).toEqual(first)
    expect((await ledgerOf(ctx, user.id)).orders).toHaveLength(1)

    for (const locale of ['en', 'ar'] as const) {
      const other = await order(
        ctx.app,
        token,
        { package_id: card, quantity: '2' },
        { key: 'k-1', query: `?local=${locale}` },
      )
      expect(other.status).toBe(422)
      expect(v.parse(ValidationErrorReplySchema, await other.json()).message).toBe(
        locale === 'en'
          ? 'This request key was already used for a different order.'
          : 'سبق استخدام مفتاح الطلب هذا لطلب مختلف.',
      )
    }

    // A key belongs to its user.
    const someoneElse = await customer(ctx)
    const theirs = await placed(
      await order(ctx.app, someoneElse.token, { package_id: card }, { key: 'k-1' }),
    )
    expect(theirs.data.id).not.toBe(first.data.id)

    // A refused order does not use the key up: after a top-up the same request goes through.
    const big = await packageId(ctx, 27, 'iTunes $100')
    const short = await order(ctx.app, token, { package_id: big }, { key: 'k-2' })
    expect(short.status).toBe(422)
    await ctx.db
      .updateTable('users')
      .set({ balance: 200_000_000n })
      .where('id', '=', user.id)
      .execute()
    const paid = await placed(await order(ctx.app, token, { package_id: big }, { key: 'k-2' }))
    expect(paid.data.total_price).toBe(105.575)
    expect((await ledgerOf(ctx, user.id)).orders).toHaveLength(2)
  })

  it('answers a repeat of an order that spent the balance with its first reply, not a refusal', async () => {
    // 5.25 + 3 % = 5.4075: the whole balance.
    const { token, user } = await customer(ctx, { balance: '5.4075' })
    const card = await packageId(ctx, 27, 'iTunes $5')
    const first = await placed(await order(ctx.app, token, { package_id: card }, { key: 'all-in' }))
    expect(first.balance).toBe(0)
    expect(
      await placed(await order(ctx.app, token, { package_id: card }, { key: 'all-in' })),
    ).toEqual(first)
    // A new order is refused for its balance, and the refusal keeps no key.
    const refused = await order(ctx.app, token, { package_id: card }, { key: 'next' })
    expect(refused.status).toBe(422)
    expect(v.parse(ValidationErrorReplySchema, await refused.json()).errors).toHaveProperty(
      'balance',
    )
    const keys = await ctx.db
      .selectFrom('idempotency_keys')
      .select('key')
      .where('user_id', '=', user.id)
      .execute()
    expect(keys).toEqual([{ key: 'all-in' }])
    expect((await ledgerOf(ctx, user.id)).orders).toHaveLength(1)
  })

  it("names the debit line in each language, whatever the reply's", async () => {
    const { token, user } = await customer(ctx, { balance: '100', locale: 'ar' })
    const card = await packageId(ctx, 27, 'iTunes $5')
    const reply = await placed(await order(ctx.app, token, { package_id: card }, { key: 'ar-1' }))
    expect(reply.message).toBe('Your order has been placed.')
    const [line] = (await ledgerOf(ctx, user.id)).logs
    expect(line?.name).toMatch(new RegExp(`^Order #${reply.data.id}: `))
    expect(line?.name_ar).toMatch(new RegExp(`^الطلب رقم ${reply.data.id}: `))
  })

  it('keeps the reply as it was sent for a balance beyond the digits of a double', async () => {
    // 123,456,789,012.345678 USD: 18 digits, which the reply's number cannot all carry.
    const { token } = await customer(ctx, { balance: '123456789017.753178' })
    const card = await packageId(ctx, 27, 'iTunes $5')
    const first = await order(ctx.app, token, { package_id: card }, { key: 'rich' })
    expect(first.status).toBe(200)
    const sent = await first.text()
    expect((JSON.parse(sent) as { balance: number }).balance).toBe(Number('123456789012.345678'))
    const again = await order(ctx.app, token, { package_id: card }, { key: 'rich' })
    expect(await again.text()).toBe(sent)
  })

  it('player search: finds demo players, says why not, and remembers them when signed in', async () => {
    const lookup = async (path: string, token?: string) => {
      const res = await get(ctx.app, path, token)
      return { status: res.status, body: (await res.json()) as unknown }
    }
    expect(await lookup('th-p-apis/1?number=5123456789')).toEqual({
      status: 200,
      body: { data: { username: 'Player 5123456789' } },
    })
    v.parse(PlayerLookupReplySchema, (await lookup('th-p-apis/1?number=12345')).body)
    expect(await lookup('automated/get/player/name/5123456789/pubg-mobile')).toEqual({
      status: 200,
      body: { data: { username: 'Player 5123456789' } },
    })
    const notFound = { message: 'Player not found.', msg: 'Player not found.' }
    for (const path of [
      'th-p-apis/1?number=0123456', // starts with 0
      'th-p-apis/1?number=1234', // too short
      'th-p-apis/1?number=1234567890123', // too long
      'th-p-apis/2?number=5123456789', // a search the demo provider does not have
      'th-p-apis/abc?number=5123456789',
      'automated/get/player/name/5123456789/free-fire',
    ]) {
      expect(await lookup(path), path).toEqual({ status: 422, body: notFound })
    }
    expect(await lookup('th-p-apis/1?number=0&local=ar')).toEqual({
      status: 422,
      body: { message: 'لم يتم العثور على اللاعب.', msg: 'لم يتم العثور على اللاعب.' },
    })
    expect(await lookup('th-p-apis/1')).toEqual({
      status: 422,
      body: { message: 'Enter the player number.', msg: 'Enter the player number.' },
    })
    // A stale token does not break the public call.
    expect((await lookup('th-p-apis/1?number=5123456789', 'x'.repeat(43))).status).toBe(200)
    // Signed out, nothing was remembered.
    expect(await ctx.db.selectFrom('player_numbers').select('id').execute()).toHaveLength(
      await demoPlayerNumbers(ctx),
    )

    const { token } = await customer(ctx)
    const info = async () => {
      const res = await get(ctx.app, 'player_number/info?product_id=1', token)
      expect(res.status).toBe(200)
      return v.parse(PlayerNumberReplySchema, await res.json()).data.player_number
    }
    expect(await info()).toBeNull()
    expect((await get(ctx.app, 'player_number/info?product_id=1')).status).toBe(401)
    expect((await lookup('th-p-apis/1?number=7000000001', token)).status).toBe(200)
    expect((await lookup('automated/get/player/name/7000000002/pubg-mobile', token)).status).toBe(
      200,
    )
    expect(await info()).toBe('7000000002')
    const other = await get(ctx.app, 'player_number/info?product_id=2', token)
    expect(await other.json()).toEqual({ data: { player_number: null } })

    // The order goes through with a number this user found, and takes the name found.
    const uc = await packageId(ctx, 1, '60 UC')
    const reply = await placed(
      await order(ctx.app, token, {
        package_id: uc,
        player_number: '7000000001',
        player_name: 'Me',
      }),
    )
    expect(reply.data).toMatchObject({
      player_number: '7000000001',
      player_name: 'Player 7000000001',
      total_price: 0.9345,
    })
    // A number found by someone else does not count for this user.
    const stranger = await customer(ctx)
    const refused = await order(ctx.app, stranger.token, {
      package_id: uc,
      player_number: '7000000001',
    })
    expect(refused.status).toBe(422)
  })

  it('lists only the own orders, newest first, 10 a page, by status and date', async () => {
    const { token, user } = await customer(ctx, { balance: '1000' })
    const card = await packageId(ctx, 27, 'iTunes $5')
    const ids: number[] = []
    for (let i = 0; i < 12; i++) {
      ids.push((await placed(await order(ctx.app, token, { package_id: card }))).data.id)
    }
    const now = ctx.clock.now()
    await completeOrder(ctx.db, ids[0]!, { codes: ['A-1'], now })
    await completeOrder(ctx.db, ids[1]!, { now })
    await cancelOrder(ctx.db, ids[2]!, { reason: 'Out of stock', lbpRate: 89_500, now })
    await ctx.db.updateTable('orders').set({ status: 'FAILED' }).where('id', '=', ids[3]!).execute()
    const dated: [number, string][] = [
      [ids[4]!, '2026-01-10T23:59:59.000Z'],
      [ids[5]!, '2026-01-11T00:00:00.000Z'],
      [ids[6]!, '2026-01-11T23:59:59.999Z'],
      [ids[7]!, '2026-01-12T00:00:00.000Z'],
    ]
    for (const [id, at] of dated) {
      await ctx.db.updateTable('orders').set({ created_at: at }).where('id', '=', id).execute()
    }

    // Days in UTC here; the store's own time zone has a test of its own.
    const utc = ctx.appWith({ storeTimeZone: 'UTC' })
    const list = async (query: string, as = token) => {
      const res = await get(utc, `orders?local=en${query}`, as)
      expect(res.status).toBe(200)
      return v.parse(OrderPageSchema, await res.json())
    }
    const first = await list('')
    expect(first).toMatchObject({ total: 12, per_page: 10, current_page: 1, last_page: 2 })
    const undated = ids.filter((id) => !dated.some(([d]) => d === id)).reverse()
    expect(first.data.map((o) => o.id)).toEqual(
      [...undated, ids[7], ids[6], ids[5], ids[4]].slice(0, 10),
    )
    expect((await list('&page=2')).data).toHaveLength(2)
    expect((await list('&page=3')).data).toHaveLength(0)

    expect((await list('&status=COMPLETED')).data.map((o) => o.id)).toEqual([ids[1], ids[0]])
    expect((await list('&status=COMPLETED')).data[1]!.item_codes).toEqual([{ code: 'A-1' }])
    const canceled = (await list('&status=CANCELED')).data
    expect(canceled).toMatchObject([
      { id: ids[2], status: 'CANCELED', refuse_reason: 'Out of stock' },
    ])
    // FAILED is listed with the waiting ones.
    const waiting = await list('&status=WAITING')
    expect(waiting.total).toBe(9)
    expect(waiting.data.map((o) => o.status)).toContain('FAILED')
    expect((await list('&status=all')).total).toBe(12)

    // Dates: the end day counts whole; ' 00:00:00' (as the client sends) means the same.
    const range = async (q: string) => (await list(q)).data.map((o) => o.id)
    expect(await range('&start_date=2026-01-11&end_date=2026-01-11')).toEqual([ids[6], ids[5]])
    expect(await range('&start_date=2026-01-10%2000:00:00&end_date=2026-01-11%2000:00:00')).toEqual(
      [ids[6], ids[5], ids[4]],
    )
    expect(await range('&start_date=2026-01-10+00:00:00&end_date=2026-01-12')).toHaveLength(4)
    expect(await range('&end_date=2026-01-10&status=WAITING')).toEqual([ids[4]])
    expect((await list('&start_date=not-a-date')).total).toBe(12)

    // Another user sees none of them, and not one of them by id.
    const other = await customer(ctx)
    expect((await list('', other.token)).total).toBe(0)
    for (const locale of ['en', 'ar'] as const) {
      const res = await get(ctx.app, `orders/${ids[0]}?local=${locale}`, other.token)
      expect(res.status).toBe(404)
      expect(await res.json()).toEqual({
        message: locale === 'en' ? 'This order was not found.' : 'هذا الطلب غير موجود.',
      })
    }
    expect((await get(ctx.app, 'orders/abc', token)).status).toBe(404)
    expect((await get(ctx.app, `orders/${ids[0]}`)).status).toBe(401)

    const own = await get(ctx.app, `orders/${ids[0]}?local=ar`, token)
    expect(own.status).toBe(200)
    const detail = v.parse(OrderReplySchema, await own.json()).data
    expect(detail).toMatchObject({
      id: ids[0],
      status: 'COMPLETED',
      product_name: 'بطاقة آيتونز (أمريكي)',
      package_name: 'آيتونز 5$',
      item_codes: [{ code: 'A-1' }],
      user: { username: user.username, phone_number: user.phone_number },
    })
  })

  it('status/bulk applies what the provider says, once, through the operator code path', async () => {
    const answers = new Map<string, ProviderOrderStatus>()
    let down = false
    let unreachableOnce = true
    const provider: Provider = {
      ...createLocalProvider(),
      kind: 'http',
      async placeOrder(o) {
        if (o.quantity === 2 && unreachableOnce) {
          unreachableOnce = false
          throw new ProviderError('unreachable')
        }
        return o.quantity === 3
          ? { ref: null, status: 'FAILED', detail: 'no stock' }
          : { ref: `P-${o.id}`, status: 'WAITING' }
      },
      async orderStatus(refs) {
        if (down) throw new ProviderError('down')
        return refs.map((ref) => answers.get(ref) ?? { ref, status: 'WAITING' })
      },
    }
    const app = appWithProvider(provider)
    const { token, user } = await customer(ctx, { balance: '100', locale: 'ar' })
    const card = await packageId(ctx, 27, 'iTunes $5')
    const ids: number[] = []
    for (const quantity of ['1', '1', '1', '3']) {
      ids.push((await placed(await order(app, token, { package_id: card, quantity }))).data.id)
    }
    await backgroundSettled(ctx.db)
    // The provider refused the last one: FAILED, which the storefront shows as waiting.
    const failed = await ctx.db
      .selectFrom('orders')
      .select(['status', 'provider_ref'])
      .where('id', '=', ids[3]!)
      .executeTakeFirstOrThrow()
    expect(failed).toEqual({ status: 'FAILED', provider_ref: null })

    answers.set(`P-${ids[0]}`, {
      ref: `P-${ids[0]}`,
      status: 'COMPLETED',
      codes: ['AAA-111', 'BBB-222'],
      note: 'Enjoy',
      expiryDate: '2027-12-31',
    })
    answers.set(`P-${ids[1]}`, { ref: `P-${ids[1]}`, status: 'CANCELED', reason: 'Out of stock' })
    const before = await balanceOf(ctx, user.id)
    const res = await get(app, 'automated/get/status/bulk?local=en', token)
    expect(res.status).toBe(200)
    expect(v.parse(StatusBulkReplySchema, await res.json())).toEqual({
      message: 'Your orders are up to date.',
      data: { updated: 2 },
    })
    const detail = async (id: number) =>
      v.parse(OrderReplySchema, await (await get(app, `orders/${id}`, token)).json()).data
    expect(await detail(ids[0]!)).toMatchObject({
      status: 'COMPLETED',
      item_codes: [{ code: 'AAA-111' }, { code: 'BBB-222' }],
      accept_note: 'Enjoy',
      expiry_date: '2027-12-31',
    })
    expect(await detail(ids[1]!)).toMatchObject({
      status: 'CANCELED',
      refuse_reason: 'Out of stock',
    })
    expect(await detail(ids[2]!)).toMatchObject({ status: 'WAITING' })
    // The refund, once, with a history line and notifications in the user's language.
    expect(await balanceOf(ctx, user.id)).toBe(before + 5_407_500n)
    const again = await get(app, 'automated/get/status/bulk', token)
    expect(v.parse(StatusBulkReplySchema, await again.json()).data.updated).toBe(0)
    expect(await balanceOf(ctx, user.id)).toBe(before + 5_407_500n)
    const refunds = (await ledgerOf(ctx, user.id)).logs.filter((l) => l.status === 'Charged')
    expect(refunds).toEqual([
      {
        status: 'Charged',
        name: `Refund of order #${ids[1]}: iTunes Gift Card (US) — iTunes $5`,
        name_ar: `استرداد الطلب رقم ${ids[1]}: بطاقة آيتونز (أمريكي) — آيتونز 5$`,
        previous_balance: before,
        value: 5_407_500n,
        current_balance: before + 5_407_500n,
      },
    ])
    const notes = await ctx.db
      .selectFrom('notifications')
      .select(['title', 'description'])
      .where('user_id', '=', user.id)
      .orderBy('id')
      .execute()
    expect(notes).toEqual([
      {
        title: `تم تنفيذ الطلب رقم ${ids[0]}`,
        description: 'اكتمل طلبك: بطاقة آيتونز (أمريكي) — آيتونز 5$.',
      },
      {
        title: `تم إلغاء الطلب رقم ${ids[1]}`,
        description: 'السبب: Out of stock. أُعيد مبلغ 5.41 $ إلى محفظتك.',
      },
    ])
    const profile = await ctx.db
      .selectFrom('users')
      .select('new_notifications_count')
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow()
    expect(profile.new_notifications_count).toBe(2)

    // An order the provider never took (it was down) is handed over again after a minute.
    const stranded = (await placed(await order(app, token, { package_id: card, quantity: '2' })))
      .data.id
    const refOf = async () =>
      (
        await ctx.db
          .selectFrom('orders')
          .select('provider_ref')
          .where('id', '=', stranded)
          .executeTakeFirstOrThrow()
      ).provider_ref
    expect(await refOf()).toBeNull()
    await get(app, 'automated/get/status/bulk', token)
    expect(await refOf()).toBeNull()
    ctx.clock.advance(61_000)
    answers.set(`P-${stranded}`, { ref: `P-${stranded}`, status: 'COMPLETED', codes: ['S-1'] })
    const handed = await get(app, 'automated/get/status/bulk', token)
    expect(v.parse(StatusBulkReplySchema, await handed.json()).data.updated).toBe(1)
    expect(await refOf()).toBe(`P-${stranded}`)
    expect(await detail(stranded)).toMatchObject({
      status: 'COMPLETED',
      item_codes: [{ code: 'S-1' }],
    })

    down = true
    const unavailable = await get(app, 'automated/get/status/bulk?local=ar', token)
    expect(unavailable.status).toBe(503)
    expect(await unavailable.json()).toEqual({
      message: 'تعذّر التحقق من حالة الطلبات حاليًا. يُرجى المحاولة لاحقًا.',
    })
    expect((await get(app, 'automated/get/status/bulk')).status).toBe(401)
  })
})

/** Player numbers the demo seed remembered (the demo account's PUBG order). */
async function demoPlayerNumbers(ctx: TestContext) {
  const rows = await ctx.db
    .selectFrom('player_numbers')
    .innerJoin('users', 'users.id', 'player_numbers.user_id')
    .select('player_numbers.id')
    .where('users.username', '=', 'demo')
    .execute()
  return rows.length
}
