import * as v from 'valibot'
import { expect, it } from 'vitest'
import { ValidationErrorReplySchema } from '../../src/contract/common'
import { PlaceOrderReplySchema } from '../../src/contract/orders'
import { describeEachDatabase } from '../test/context'
import { balanceOf, customer, get, ledgerOf, order, packageId } from '../test/orders'

/** Checkout's reading of a form: what it keeps, what it refuses, how it prices and dates. */
describeEachDatabase('checkout', (ctx) => {
  const placed = async (res: Response) => {
    expect(res.status, await res.clone().text()).toBe(200)
    return v.parse(PlaceOrderReplySchema, await res.json())
  }
  const refused = async (res: Response) => {
    expect(res.status, await res.clone().text()).toBe(422)
    return v.parse(ValidationErrorReplySchema, await res.json())
  }
  const postJson = (token: string, body: unknown) =>
    ctx.app.request('/api/automated/get/packages', {
      method: 'POST',
      body: JSON.stringify(body),
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    })

  it('keeps only the fields the item form has (the standard form: the account login and a contact number), and stores none of the others', async () => {
    const { token } = await customer(ctx)
    const card = await packageId(ctx, 27, 'iTunes $5')
    const reply = await placed(
      await order(ctx.app, token, {
        package_id: card,
        quantity: '1',
        contact_number: '+961 70 123 456',
        social_link: 'https://example.com/p/1',
        wallet_address: 'TXnotasked',
        email_or_phone_number: 'someone@example.com',
        password: 'secret',
        service_type: 'LIKES',
        player_number: '12345',
        player_name: 'Someone',
        made_up_field: 'x',
      }),
    )
    expect(reply.data).toMatchObject({
      contact_number: '+961 70 123 456',
      social_link: null,
      wallet_address: null,
      email_or_phone_number: 'someone@example.com',
      password: 'secret',
      service_type: null,
      player_number: null,
      player_name: null,
      requirements: [],
    })
    const row = await ctx.db
      .selectFrom('orders')
      .selectAll()
      .where('id', '=', reply.data.id)
      .executeTakeFirstOrThrow()
    expect(row).toMatchObject({
      contact_number: '+961 70 123 456',
      social_link: null,
      wallet_address: null,
      email_or_phone_number: 'someone@example.com',
      password: 'secret',
      service_type: null,
      player_number: null,
      player_name: null,
      requirements: '[]',
    })
    expect(Object.values(row).map(String).join(' ')).not.toContain('made_up_field')
  })

  it('asks an item that signs in to the game account for its e-mail or phone', async () => {
    const { token } = await customer(ctx)
    const robux = await packageId(ctx, 4, '400 Robux')
    const missing = await refused(await order(ctx.app, token, { package_id: robux }))
    expect(missing.message).toBe('E-mail or phone number is required.')
    const reply = await placed(
      await order(ctx.app, token, {
        package_id: robux,
        email_or_phone_number: 'gamer@example.com',
        password: 'hunter22',
      }),
    )
    expect(reply.data).toMatchObject({
      email_or_phone_number: 'gamer@example.com',
      password: 'hunter22',
    })
  })

  it('takes an optional e-mail or phone on a standard form, checked only when filled', async () => {
    const { token, user } = await customer(ctx, { balance: '1000' })
    const card = await packageId(ctx, 27, 'iTunes $5')
    const bad = { package_id: card, email_or_phone_number: 'not an address' }
    expect((await refused(await order(ctx.app, token, bad))).message).toBe(
      'Enter an e-mail address or a phone number.',
    )
    expect((await refused(await order(ctx.app, token, bad, { query: '?local=ar' }))).message).toBe(
      'أدخل بريدًا إلكترونيًا أو رقم هاتف.',
    )
    expect((await ledgerOf(ctx, user.id)).orders).toEqual([])
    const bare = await placed(await order(ctx.app, token, { package_id: card }))
    expect(bare.data).toMatchObject({ email_or_phone_number: null, password: null })
    const phone = await placed(
      await order(ctx.app, token, { package_id: card, email_or_phone_number: '+961 70 123 456' }),
    )
    expect(phone.data.email_or_phone_number).toBe('+961 70 123 456')
  })

  it('refuses a field named like a built-in property of objects with 422, not a server error', async () => {
    const { token, user } = await customer(ctx, { balance: '1000' })
    const card = await packageId(ctx, 27, 'iTunes $5')
    for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
      const res = await postJson(token, JSON.parse(`{"package_id":"${card}","${name}":{}}`))
      expect(res.status, await res.clone().text()).toBe(422)
      // Read as JSON, not through the reply's schema (which leaves such keys out).
      const body = (await res.json()) as { message: string; errors: Record<string, string[]> }
      expect(body.message).toBe(`${name} is not valid`)
      expect(Object.keys(body.errors)).toEqual([name])
    }
    expect((await ledgerOf(ctx, user.id)).logs).toEqual([])
  })

  it('refuses a quantity that is not text, above the cap, or too large to pay', async () => {
    const { token, user } = await customer(ctx, { balance: '1000' })
    const card = await packageId(ctx, 27, 'iTunes $5')
    for (const quantity of [true, [1], { n: 1 }, null]) {
      const body = await refused(await postJson(token, { package_id: card, quantity }))
      expect(body.errors).toHaveProperty('quantity')
    }
    const capped = await refused(
      await order(ctx.app, token, { package_id: card, quantity: '100000001' }),
    )
    expect(capped.message).toBe('Quantity must be less than or equal to 100000000')
    const huge = await refused(
      await order(ctx.app, token, { package_id: card, quantity: '999999999999999' }),
    )
    expect(huge.errors).toHaveProperty('quantity')
    // In pounds the cap's total is beyond what a wallet holds: refused, not a server error.
    const lebanese = await customer(ctx, { currency: 'LBP', balance: '1000' })
    const tooLarge = await refused(
      await order(ctx.app, lebanese.token, { package_id: card, quantity: '100000000' }),
    )
    expect(tooLarge.message).toBe('This order is too large. Lower the quantity.')
    expect((await ledgerOf(ctx, user.id)).logs).toEqual([])
  })

  it('reads qty and quantity as one field, for the price and for the key alike', async () => {
    const { token, user } = await customer(ctx, { balance: '100' })
    const card = await packageId(ctx, 27, 'iTunes $5')
    const both = await refused(
      await order(ctx.app, token, { package_id: card, qty: '1', quantity: '3' }),
    )
    expect(both.errors).toHaveProperty('quantity')
    const first = await placed(
      await order(ctx.app, token, { package_id: card, qty: '2' }, { key: 'same-order' }),
    )
    const again = await placed(
      await order(ctx.app, token, { package_id: card, quantity: '2' }, { key: 'same-order' }),
    )
    expect(again).toEqual(first)
    expect(first.data.quantity).toBe(2)
    expect((await ledgerOf(ctx, user.id)).logs).toHaveLength(1)
  })

  it('refuses control and invisible formatting characters in what the customer types', async () => {
    const { token, user } = await customer(ctx)
    const card = await packageId(ctx, 27, 'iTunes $5')
    for (const sneaky of ['70\u202e123', 'a\u200db']) {
      const body = await refused(
        await order(ctx.app, token, { package_id: card, contact_number: sneaky }),
      )
      expect(body.message).toBe('Contact number contains characters that cannot be used.')
    }
    // A NUL is refused for every form before its own checks (no database can compare it).
    const nul = await order(ctx.app, token, { package_id: card, contact_number: 'nul\u0000' })
    expect(nul.status).toBe(422)
    expect(((await nul.json()) as { message: string }).message).toBe(
      'What was sent contains a character that cannot be used (NUL). Remove it and try again.',
    )
    expect(await balanceOf(ctx, user.id)).toBe(100_000_000n)
  })

  it('sends every amount exactly, never a float sum', async () => {
    const { token } = await customer(ctx, { balance: '12.42' })
    const card = await packageId(ctx, 27, 'iTunes $10')
    const res = await order(ctx.app, token, { package_id: card })
    const text = await res.text()
    // 12.42 - 10.712 = 1.708, exactly.
    expect(text).toContain('"balance":1.708')
    expect(text).not.toMatch(/\d\.\d{7,}/)
  })

  it('dates orders in the store time zone: 00:30 in Beirut is that Beirut day', async () => {
    const { token } = await customer(ctx)
    const card = await packageId(ctx, 27, 'iTunes $5')
    const reply = await placed(await order(ctx.app, token, { package_id: card }))
    // 00:30 on 15 January in Beirut is 22:30 UTC on the 14th.
    await ctx.db
      .updateTable('orders')
      .set({ created_at: '2026-01-14T22:30:00.000Z' })
      .where('id', '=', reply.data.id)
      .execute()
    const beirut = ctx.appWith({ storeTimeZone: 'Asia/Beirut' })
    const day = async (d: string) => {
      const res = await get(
        beirut,
        `orders?start_date=${d}%2000:00:00&end_date=${d}%2000:00:00`,
        token,
      )
      return (await res.json()) as {
        total: number
        data: { date: string; time: string; created_at: string }[]
      }
    }
    const on15 = await day('2026-01-15')
    expect(on15.total).toBe(1)
    expect(on15.data[0]).toMatchObject({
      date: '2026-01-15',
      time: '00:30',
      created_at: '2026-01-14T22:30:00.000Z',
    })
    expect((await day('2026-01-14')).total).toBe(0)
    // A bound no one means (year 9999) is no bound: the order is still found.
    const far = await get(beirut, 'orders?end_date=9999-12-31', token)
    expect(((await far.json()) as { total: number }).total).toBe(1)
  })
})
