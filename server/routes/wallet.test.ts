import { readdirSync } from 'node:fs'
import { crc32, deflateSync } from 'node:zlib'
import sharp from 'sharp'
import * as v from 'valibot'
import { expect, it } from 'vitest'
import {
  ChargeReplySchema,
  ChargingProcessPageSchema,
  ChargingProcessReplySchema,
  PaymentInfoReplySchema,
  PaymentLogPageSchema,
  PaymentLogReplySchema,
} from '../../src/contract/wallet'
import { PlaceOrderReplySchema } from '../../src/contract/orders'
import { RECEIPT_METHOD_ENTRIES } from '../../src/contract/payment-methods'
import { approveCharge, rejectCharge } from '../services/charging'
import { paymentSettings, updatePaymentSettings } from '../services/settings'
import { createPromo } from '../services/promo-codes'
import { runOperator } from '../test/cli'
import { describeEachDatabase, type TestContext } from '../test/context'
import { balanceOf, customer, get, ledgerOf, OPENING_LINE, order, packageId } from '../test/orders'

/** A real photo: a PNG of the given size, drawn by sharp. */
const png = (width = 64, height = 48) =>
  sharp({ create: { width, height, channels: 3, background: '#36a' } })
    .png()
    .toBuffer()

/**
 * The header of a PNG claiming 20,000 x 20,000 pixels (400 million): a few dozen bytes that
 * would take gigabytes to decode, as a "decompression bomb" would.
 */
function hugePng(): Uint8Array {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data])
    const length = Buffer.alloc(4)
    length.writeUInt32BE(data.length)
    const crc = Buffer.alloc(4)
    crc.writeUInt32BE(crc32(body))
    return Buffer.concat([length, body, crc])
  }
  const header = Buffer.alloc(13)
  header.writeUInt32BE(20_000, 0)
  header.writeUInt32BE(20_000, 4)
  header.set([8, 2, 0, 0, 0], 8) // 8-bit RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.alloc(1000))),
    chunk('IEND', Buffer.alloc(0)),
  ])
}

function upload(
  ctx: TestContext,
  token: string,
  fields: Record<string, string>,
  file?: { bytes: Uint8Array; name: string; type: string },
  query = '',
  /** The client's address, as the socket would give it. */
  ip?: string,
) {
  const form = new FormData()
  for (const [k, value] of Object.entries(fields)) form.append(k, value)
  if (file)
    form.append('image', new Blob([new Uint8Array(file.bytes)], { type: file.type }), file.name)
  return ctx.app.request(
    `/api/charging-processes${query}`,
    { method: 'POST', body: form, headers: { authorization: `Bearer ${token}` } },
    { incoming: { socket: { remoteAddress: ip } } },
  )
}

const promo = (ctx: TestContext, token: string, code: string, ip?: string) =>
  upload(ctx, token, { promo_code: code }, undefined, '?name=PROMO_CODE', ip)

const receipts = (ctx: TestContext) => readdirSync(ctx.config.receipts.dir)

describeEachDatabase('wallet API', (ctx) => {
  const sendReceipt = async (token: string, value = '50', name = 'WHISH_MONEY') => {
    const res = await upload(
      ctx,
      token,
      { name, value },
      {
        bytes: await png(),
        name: 'notice.png',
        type: 'image/png',
      },
    )
    expect(res.status, await res.clone().text()).toBe(200)
    return v.parse(ChargeReplySchema, await res.json()).data
  }

  it('tells the methods the store offers, with their taxes', async () => {
    const res = await ctx.app.request('/api/payments/info?local=en')
    expect(res.status).toBe(200)
    const { data } = v.parse(PaymentInfoReplySchema, await res.json())
    expect(data).toMatchObject({
      usdt_tax_percentage: 1.5,
      whish_money_tax_percentage: 2,
      omt_pay_tax_percentage: 3,
    })
    expect(data.whish_money_text).toContain('Whish')
    expect(data.usdt_trc20).toMatch(/^T/)
  })

  it('takes a receipt, keeps a clean copy for its owner only, and waits for the operator', async () => {
    const { token, user } = await customer(ctx, { balance: '0' })
    const charge = await sendReceipt(token, '50')
    expect(charge).toMatchObject({
      name: 'WHISH_MONEY',
      value: 50,
      tax_percentage: 2,
      shipping_value: 49,
      currency: 'USD',
      status: 'WAITING',
    })
    expect(await balanceOf(ctx, user.id)).toBe(0n)

    // The owner sees it and its photo, re-encoded as a JPEG; nobody else does.
    const list = v.parse(
      ChargingProcessPageSchema,
      await (await get(ctx.app, 'charging-processes', token)).json(),
    )
    expect(list.data.map((c) => c.id)).toEqual([charge.id])
    const photo = await get(ctx.app, `charging-processes/${charge.id}/receipt`, token)
    expect(photo.status).toBe(200)
    expect(photo.headers.get('content-type')).toBe('image/jpeg')
    const kept = new Uint8Array(await photo.arrayBuffer())
    expect((await sharp(kept).metadata()).format).toBe('jpeg')
    const other = await customer(ctx)
    for (const path of [
      `charging-processes/${charge.id}`,
      `charging-processes/${charge.id}/receipt`,
    ])
      expect((await get(ctx.app, path, other.token)).status, path).toBe(404)
    expect((await get(ctx.app, `charging-processes/${charge.id}/receipt`)).status).toBe(401)
  })

  it('refuses what is no photo, or too big, and keeps nothing of it', async () => {
    const { token, user } = await customer(ctx)
    const before = receipts(ctx).length
    const cases: Array<[string, Uint8Array, string, number, RegExp]> = [
      [
        'HTML named .jpg',
        new TextEncoder().encode('<html><script>alert(1)</script></html>'),
        'image/jpeg',
        422,
        /JPEG, PNG or WebP/,
      ],
      [
        'SVG',
        new TextEncoder().encode(
          '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
        ),
        'image/svg+xml',
        422,
        /JPEG, PNG or WebP/,
      ],
      ['20000 x 20000 pixels', hugePng(), 'image/png', 422, /too many pixels/],
    ]
    for (const [what, bytes, type, status, message] of cases) {
      const res = await upload(
        ctx,
        token,
        { name: 'OMT_PAY', value: '10' },
        { bytes, name: 'r.jpg', type },
      )
      expect(res.status, what).toBe(status)
      expect(((await res.json()) as { message: string }).message, what).toMatch(message)
    }
    const huge = await upload(
      ctx,
      token,
      { name: 'OMT_PAY', value: '10' },
      { bytes: new Uint8Array(50 * 1024 * 1024), name: 'big.jpg', type: 'image/jpeg' },
      '?local=ar',
    )
    expect(huge.status).toBe(413)
    expect(((await huge.json()) as { message: string }).message).toBe(
      'يجب ألا يتجاوز حجم الصورة 8 ميغابايت.',
    )
    const missing = await upload(ctx, token, { name: 'OMT_PAY', value: '10' })
    expect(missing.status).toBe(422)
    const badValue = await upload(
      ctx,
      token,
      { name: 'OMT_PAY', value: '-3' },
      {
        bytes: await png(),
        name: 'r.png',
        type: 'image/png',
      },
    )
    expect(((await badValue.json()) as { message: string }).message).toBe(
      'Please enter a valid amount',
    )
    expect(receipts(ctx).length).toBe(before)
    const rows = await ctx.db
      .selectFrom('charging_processes')
      .select('id')
      .where('user_id', '=', user.id)
      .execute()
    expect(rows).toEqual([])
  })

  it('credits an approved receipt once, however many approve it at once', async () => {
    const { token, user } = await customer(ctx, { balance: '1' })
    const charge = await sendReceipt(token, '100', 'OMT_PAY')
    const now = ctx.clock.now()
    const results = await Promise.all(
      Array.from({ length: 8 }, () =>
        approveCharge(ctx.db, charge.id, { rate: 89_500, actor: 'test', now }),
      ),
    )
    expect(results.filter((r) => r.changed)).toHaveLength(1)
    // 100 less 3 % tax.
    expect(await balanceOf(ctx, user.id)).toBe(98_000_000n)
    const { logs } = await ledgerOf(ctx, user.id)
    expect(logs.at(-1)).toMatchObject({ status: 'Charged', value: 97_000_000n })
    // Decided once: neither a second approval nor a rejection changes it.
    expect(
      (await approveCharge(ctx.db, charge.id, { rate: 89_500, actor: 'test', now })).changed,
    ).toBe(false)
    expect(
      (await rejectCharge(ctx.db, charge.id, { reason: 'x', actor: 'test', now })).changed,
    ).toBe(false)
    const shown = v.parse(
      ChargingProcessReplySchema,
      await (await get(ctx.app, `charging-processes/${charge.id}`, token)).json(),
    )
    expect(shown.data.status).toBe('COMPLETED')
  })

  it('refuses a rejected receipt for good, with its reason, and credits nothing', async () => {
    const { token, user } = await customer(ctx, { balance: '0' })
    const charge = await sendReceipt(token, '20')
    const now = ctx.clock.now()
    expect(
      (await rejectCharge(ctx.db, charge.id, { reason: 'Unreadable photo', actor: 'test', now }))
        .changed,
    ).toBe(true)
    expect(
      (await approveCharge(ctx.db, charge.id, { rate: 89_500, actor: 'test', now })).changed,
    ).toBe(false)
    expect(await balanceOf(ctx, user.id)).toBe(0n)
    const shown = v.parse(
      ChargingProcessReplySchema,
      await (await get(ctx.app, `charging-processes/${charge.id}?local=ar`, token)).json(),
    )
    expect(shown.data).toMatchObject({ status: 'CANCELED', reject_reason: 'Unreadable photo' })
    const notes = await ctx.db
      .selectFrom('notifications')
      .select(['title', 'description'])
      .where('user_id', '=', user.id)
      .execute()
    expect(notes.at(-1)?.description).toContain('Unreadable photo')
  })

  it('redeems a code at once, once per customer, and a one-use code once among ten', async () => {
    const now = ctx.clock.now()
    await createPromo(
      ctx.db,
      { code: 'ONCE-ONLY', value: 7_000_000n, currency: 'USD', usesAllowed: 1, expiresAt: null },
      { now },
    )
    const people = await Promise.all(
      Array.from({ length: 10 }, () => customer(ctx, { balance: '0' })),
    )
    const replies = await Promise.all(
      people.map((p) =>
        upload(ctx, p.token, { promo_code: 'once-only' }, undefined, '?name=PROMO_CODE'),
      ),
    )
    expect(replies.map((r) => r.status).sort()).toEqual([200, ...Array(9).fill(422)])
    const balances = await Promise.all(people.map((p) => balanceOf(ctx, p.user.id)))
    expect(balances.filter((b) => b === 7_000_000n)).toHaveLength(1)
    expect(balances.filter((b) => b === 0n)).toHaveLength(9)

    // A code for many: each customer once.
    await createPromo(
      ctx.db,
      { code: 'MANY', value: 2_500_000n, currency: 'USD', usesAllowed: 100, expiresAt: null },
      { now },
    )
    const { token, user } = await customer(ctx, { balance: '1' })
    const first = await upload(ctx, token, { promo_code: 'MANY' }, undefined, '?name=PROMO_CODE')
    expect(first.status).toBe(200)
    expect(v.parse(ChargeReplySchema, await first.json()).balance).toBe(3.5)
    const again = await upload(ctx, token, { promo_code: 'MANY' }, undefined, '?name=PROMO_CODE')
    expect(again.status).toBe(422)
    expect(((await again.json()) as { message: string }).message).toBe(
      'You have already used this code.',
    )
    const unknown = await upload(
      ctx,
      token,
      { promo_code: 'NOPE' },
      undefined,
      '?name=PROMO_CODE&local=ar',
    )
    expect(((await unknown.json()) as { message: string }).message).toBe('هذا الرمز غير صالح.')
    expect(await balanceOf(ctx, user.id)).toBe(3_500_000n)
  })

  it('counts wrong codes per customer and per address: 429 after 5 and after 20 an hour', async () => {
    await createPromo(
      ctx.db,
      { code: 'RIGHT', value: 1_000_000n, currency: 'USD', usesAllowed: 100, expiresAt: null },
      { now: ctx.clock.now() },
    )
    // 30 guesses at once from one customer: 5 are looked at, the others refused unread.
    const guesser = await customer(ctx, { balance: '0' })
    const guesses = await Promise.all(
      Array.from({ length: 30 }, (_, i) => promo(ctx, guesser.token, `GUESS-${i}`, '198.51.100.1')),
    )
    const statuses = guesses.map((r) => r.status)
    expect(statuses.filter((s) => s === 422)).toHaveLength(5)
    expect(statuses.filter((s) => s === 429)).toHaveLength(25)
    const refused = guesses.find((r) => r.status === 429)!
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/)
    expect(((await refused.json()) as { message: string }).message).toMatch(
      /^Too many wrong codes\. Please try again in \d+ minutes\.$/,
    )
    // Even the right code waits for the window; the other customers do not.
    expect((await promo(ctx, guesser.token, 'RIGHT', '198.51.100.1')).status).toBe(429)
    // Right codes give their try back: a customer who redeems many is never held.
    const many = await customer(ctx, { balance: '0' })
    for (let i = 0; i < 8; i++) {
      await createPromo(
        ctx.db,
        { code: `GIFT-${i}`, value: 1_000_000n, currency: 'USD', usesAllowed: 1, expiresAt: null },
        { now: ctx.clock.now() },
      )
      expect((await promo(ctx, many.token, `GIFT-${i}`, '203.0.113.9')).status).toBe(200)
    }
    // One address, several accounts: 20 wrong codes, then 429 for anyone there.
    const accounts = await Promise.all(
      Array.from({ length: 5 }, () => customer(ctx, { balance: '0' })),
    )
    for (const [n, account] of accounts.entries())
      for (let i = 0; i < (n < 4 ? 5 : 0); i++)
        expect((await promo(ctx, account.token, `NOPE-${n}-${i}`, '192.0.2.7')).status).toBe(422)
    expect((await promo(ctx, accounts[4]!.token, 'RIGHT', '192.0.2.7')).status).toBe(429)
    expect((await promo(ctx, accounts[4]!.token, 'RIGHT', '192.0.2.8')).status).toBe(200)
    // An hour later the windows are new.
    ctx.clock.advance(60 * 60_000)
    expect((await promo(ctx, guesser.token, 'RIGHT', '198.51.100.1')).status).toBe(200)
  })

  it('holds at most 3 receipts waiting per customer, even sent at once', async () => {
    const { token, user } = await customer(ctx, { balance: '0' })
    const photo = { bytes: await png(), name: 'notice.png', type: 'image/png' }
    const before = receipts(ctx).length
    const replies = await Promise.all(
      Array.from({ length: 6 }, () =>
        upload(ctx, token, { name: 'WHISH_MONEY', value: '10' }, photo),
      ),
    )
    const statuses = replies.map((r) => r.status)
    expect(statuses.filter((s) => s === 200)).toHaveLength(3)
    expect(statuses.filter((s) => s === 422)).toHaveLength(3)
    const refused = replies.find((r) => r.status === 422)!
    expect(((await refused.json()) as { message: string }).message).toBe(
      'You already have 3 top-ups waiting to be checked. Please wait until they are, then send this one.',
    )
    // Nothing of the refused ones is kept; once one is checked, another may be sent.
    expect(receipts(ctx).length).toBe(before + 3)
    const waiting = await ctx.db
      .selectFrom('charging_processes')
      .select('id')
      .where('user_id', '=', user.id)
      .execute()
    expect(waiting).toHaveLength(3)
    await rejectCharge(ctx.db, waiting[0]!.id, {
      reason: 'Unreadable',
      actor: 'test',
      now: ctx.clock.now(),
    })
    expect((await upload(ctx, token, { name: 'WHISH_MONEY', value: '10' }, photo)).status).toBe(200)
  })

  it('refuses an expired code', async () => {
    await createPromo(
      ctx.db,
      {
        code: 'OLD',
        value: 1_000_000n,
        currency: 'USD',
        usesAllowed: 10,
        expiresAt: new Date(ctx.clock.now().getTime() - 1000).toISOString(),
      },
      { now: ctx.clock.now() },
    )
    const { token } = await customer(ctx)
    const res = await upload(ctx, token, { promo_code: 'OLD' }, undefined, '?name=PROMO_CODE')
    expect(((await res.json()) as { message: string }).message).toBe('This code has expired.')
  })

  it('lists the wallet history by kind and day, with the totals, to its owner only', async () => {
    const { token } = await customer(ctx, { balance: '10' })
    const charge = await sendReceipt(token, '40')
    await approveCharge(ctx.db, charge.id, { rate: 89_500, actor: 'test', now: ctx.clock.now() })
    const page = async (query = '', as = token) => {
      const res = await get(ctx.app, `payment-logs?local=en${query}`, as)
      expect(res.status).toBe(200)
      return v.parse(PaymentLogPageSchema, await res.json())
    }
    const all = await page()
    // The top-up of 39.2 (40 less 2 %), newest first, after the 10 the account started with.
    expect(all.data.map((l) => [l.status, l.value])).toEqual([
      ['Charged', 39.2],
      ['Charged', 10],
    ])
    expect(all.user).toEqual({
      current_balance: 49.2,
      total_shipped: 49.2,
      total_spent: 0,
      currency: 'USD',
    })
    expect((await page('&status=Discounted')).total).toBe(0)
    expect((await page('&status=Charged')).total).toBe(2)
    expect(
      (await page('&start_date=2000-01-01%2000:00:00&end_date=2000-01-02%2000:00:00')).total,
    ).toBe(0)

    const line = all.data[0]!
    const detail = v.parse(
      PaymentLogReplySchema,
      await (await get(ctx.app, `payment-logs/${line.id}`, token)).json(),
    )
    expect(detail.data).toMatchObject({ previous_balance: 10, current_balance: 49.2 })
    const other = await customer(ctx, { balance: '0' })
    expect((await page('', other.token)).total).toBe(0)
    expect((await get(ctx.app, `payment-logs/${line.id}`, other.token)).status).toBe(404)
    expect((await get(ctx.app, 'payment-logs')).status).toBe(401)
  })

  it('says each line in the language the history is read in, not the one it was written in', async () => {
    // Written while the customer used Arabic.
    const { token } = await customer(ctx, { balance: '10', locale: 'ar' })
    const charge = await sendReceipt(token, '40')
    await approveCharge(ctx.db, charge.id, { rate: 89_500, actor: 'test', now: ctx.clock.now() })
    const placed = await order(ctx.app, token, {
      package_id: await packageId(ctx, 27, 'iTunes $5'),
      quantity: '1',
    })
    expect(placed.status).toBe(200)
    const { id } = v.parse(PlaceOrderReplySchema, await placed.json()).data
    const names = async (locale: string) => {
      const res = await get(ctx.app, `payment-logs?local=${locale}`, token)
      return v.parse(PaymentLogPageSchema, await res.json()).data.map((line) => line.name)
    }
    const [debit, credit, opening] = await names('en')
    expect(debit).toMatch(new RegExp(`^Order #${id}: .*iTunes`))
    expect(credit).toBe(`Top-up #${charge.id} (Whish Money)`)
    expect(opening).toBe(OPENING_LINE)
    const [debitAr, creditAr, openingAr] = await names('ar')
    expect(debitAr).toMatch(new RegExp(`^الطلب رقم ${id}: .*آيتونز`))
    expect(creditAr).toBe(`شحن رقم ${charge.id} (ويش موني)`)
    // One text for every language.
    expect(openingAr).toBe(OPENING_LINE)

    const lines = v.parse(
      PaymentLogPageSchema,
      await (await get(ctx.app, 'payment-logs', token)).json(),
    )
    const detail = async (locale: string) =>
      v.parse(
        PaymentLogReplySchema,
        await (
          await get(ctx.app, `payment-logs/${lines.data[1]!.id}?local=${locale}`, token)
        ).json(),
      ).data.name
    expect(await detail('en')).toBe(credit)
    expect(await detail('ar')).toBe(creditAr)
  })

  it('operator commands: list, approve, reject, receipt, codes and settings, with --json', async () => {
    const { token, user } = await customer(ctx, { balance: '0' })
    const approve = await sendReceipt(token, '10')
    const reject = await sendReceipt(token, '12', 'OMT_PAY')
    const listed = await runOperator(
      ctx,
      'charges:list',
      '--status',
      'waiting',
      '--user',
      user.username,
      '--json',
    )
    expect(listed.code).toBe(0)
    expect(JSON.parse(listed.stdout)).toMatchObject([
      { id: reject.id, username: user.username, name: 'OMT_PAY', value: 12, status: 'WAITING' },
      {
        id: approve.id,
        username: user.username,
        name: 'WHISH_MONEY',
        value: 10,
        status: 'WAITING',
      },
    ])
    const ok = await runOperator(ctx, 'charges:approve', String(approve.id), '--json')
    expect(ok.code).toBe(0)
    expect(JSON.parse(ok.stdout)).toMatchObject({ status: 'COMPLETED', balance: 9.8 })
    const twice = await runOperator(ctx, 'charges:approve', String(approve.id))
    expect(twice.code).toBe(1)
    expect(twice.stderr).toContain('only WAITING top-ups can be approved')
    expect((await runOperator(ctx, 'charges:reject', String(reject.id))).code).toBe(2)
    const no = await runOperator(
      ctx,
      'charges:reject',
      String(reject.id),
      '--reason',
      'Wrong amount',
      '--json',
    )
    expect(JSON.parse(no.stdout)).toMatchObject({
      status: 'CANCELED',
      reject_reason: 'Wrong amount',
    })
    const out = `${ctx.config.receipts.dir}/../receipt-${approve.id}.jpg`
    const saved = await runOperator(
      ctx,
      'charges:receipt',
      String(approve.id),
      '--out',
      out,
      '--json',
    )
    expect(saved.code).toBe(0)
    expect(JSON.parse(saved.stdout).bytes).toBeGreaterThan(100)

    const made = await runOperator(
      ctx,
      'promo:create',
      '--code',
      'SPRING',
      '--value',
      '3',
      '--uses',
      '2',
      '--expires',
      '2099-03-31',
      '--json',
    )
    expect(JSON.parse(made.stdout)).toMatchObject({ code: 'SPRING', value: 3, uses_allowed: 2 })
    expect((await runOperator(ctx, 'promo:create', '--code', 'spring', '--value', '3')).code).toBe(
      1,
    )
    expect((await runOperator(ctx, 'promo:create', '--code', 'X', '--value', '3')).code).toBe(2)
    expect(
      (
        await runOperator(
          ctx,
          'promo:create',
          '--code',
          'AUTUMN',
          '--value',
          '3',
          '--expires',
          '2099-13-45',
        )
      ).code,
    ).toBe(2)
    const codes = JSON.parse((await runOperator(ctx, 'promo:list', '--json')).stdout) as {
      code: string
    }[]
    expect(codes.map((c) => c.code)).toContain('SPRING')

    const set = await runOperator(
      ctx,
      'settings:payments',
      '--omt-text',
      '',
      '--whish-tax',
      '2.5',
      '--json',
    )
    expect(JSON.parse(set.stdout)).toMatchObject({
      omt_pay_text: null,
      whish_money_tax_percentage: 2.5,
    })
    expect((await runOperator(ctx, 'settings:payments', '--usdt-tax', '120')).code).toBe(2)
    // OMT is off now: the charging page does not offer it, and a request for it is refused.
    const off = await upload(
      ctx,
      token,
      { name: 'OMT_PAY', value: '10' },
      {
        bytes: await png(),
        name: 'r.png',
        type: 'image/png',
      },
    )
    expect(((await off.json()) as { message: string }).message).toBe(
      'This payment method is not available now.',
    )
    await runOperator(ctx, 'settings:payments', '--omt-text', 'Pay at OMT.', '--whish-tax', '2')
  })

  it.each(RECEIPT_METHOD_ENTRIES)(
    'offers $id once its text is set, in either language, and takes a receipt at its tax',
    async (method) => {
      const before = await paymentSettings(ctx.db)
      const by = { now: new Date(), actor: 'test' }
      const info = async (locale: string) =>
        v.parse(
          PaymentInfoReplySchema,
          await (await ctx.app.request(`/api/payments/info?local=${locale}`)).json(),
        ).data
      const { token } = await customer(ctx, { balance: '0' })
      try {
        await updatePaymentSettings(
          ctx.db,
          {
            [`${method.key}_on`]: 0,
            [`${method.key}_text`]: 'Pay us',
            [`${method.key}_tax`]: 4_000_000,
          },
          by,
        )
        expect((await info('en'))[`${method.key}_text`] ?? null).toBeNull()
        const off = await upload(
          ctx,
          token,
          { name: method.id, value: '10' },
          { bytes: await png(), name: 'notice.png', type: 'image/png' },
        )
        expect(off.status).toBe(422)

        await updatePaymentSettings(
          ctx.db,
          { [`${method.key}_on`]: 1, [`${method.key}_text_ar`]: 'ادفع لنا' },
          by,
        )
        expect(await info('en')).toMatchObject({
          [`${method.key}_text`]: 'Pay us',
          [`${method.key}_tax_percentage`]: 4,
        })
        expect((await info('ar'))[`${method.key}_text`]).toBe('ادفع لنا')
        expect(await sendReceipt(token, '50', method.id)).toMatchObject({
          name: method.id,
          tax_percentage: 4,
          shipping_value: 48,
          status: 'WAITING',
        })
      } finally {
        await updatePaymentSettings(ctx.db, before, by)
      }
    },
  )
})
