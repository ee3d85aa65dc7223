import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { MessageReplySchema, ValidationErrorReplySchema } from '../../src/contract/common'
import { MESSAGE_LIMITS } from '../../src/contract/constants'
import { describeEachDatabase } from '../test/context'

const valid = { name: 'Rami', phone_number: '+961 70 123 456', message: 'Do you sell gift cards?' }

function multipart(fields: Record<string, string>) {
  const form = new FormData()
  for (const [k, value] of Object.entries(fields)) form.append(k, value)
  return { method: 'POST', body: form }
}

describeEachDatabase('POST /api/messages', (ctx) => {
  const post = (query: string, init: RequestInit) => ctx.app.request(`/api/messages${query}`, init)

  it('stores a multipart message and thanks the sender in their language', async () => {
    const res = await post('?local=en', multipart(valid))
    expect(res.status).toBe(200)
    expect(res.headers.get('cache-control')).toBe('no-store')
    expect(v.parse(MessageReplySchema, await res.json()).message).toBe(
      'Your message has been sent. Thank you!',
    )
    const row = await ctx.db
      .selectFrom('messages')
      .selectAll()
      .where('name', '=', 'Rami')
      .executeTakeFirstOrThrow()
    expect(row).toMatchObject({ ...valid, locale: 'en' })
    expect(typeof row.id).toBe('number')
    expect(Date.parse(row.created_at)).toBeGreaterThan(Date.now() - 60_000)

    const ar = await post('?local=ar', multipart({ ...valid, name: 'سارة' }))
    expect(v.parse(MessageReplySchema, await ar.json()).message).toBe('تم إرسال رسالتك. شكرًا لك!')
    const arRow = await ctx.db
      .selectFrom('messages')
      .select(['locale'])
      .where('name', '=', 'سارة')
      .executeTakeFirstOrThrow()
    expect(arRow.locale).toBe('ar')
  })

  it('accepts urlencoded and JSON bodies, trimming the fields', async () => {
    const urlencoded = await post('', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ ...valid, name: '  Urlencoded  ' }).toString(),
    })
    expect(urlencoded.status).toBe(200)
    const json = await post('', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...valid, name: 'Json', phone_number: 96170123456 }),
    })
    expect(json.status).toBe(200)
    const rows = await ctx.db
      .selectFrom('messages')
      .select(['name', 'phone_number'])
      .where('name', 'in', ['Urlencoded', 'Json'])
      .orderBy('id')
      .execute()
    expect(rows).toEqual([
      { name: 'Urlencoded', phone_number: valid.phone_number },
      { name: 'Json', phone_number: '96170123456' },
    ])
  })

  it('records the client address from X-Forwarded-For only behind a trusted proxy', async () => {
    const headers = { 'x-forwarded-for': '203.0.113.9, 198.51.100.7' }
    const direct = await ctx.app.request('/api/messages', {
      ...multipart({ ...valid, name: 'Direct' }),
      headers,
    })
    expect(direct.status).toBe(200)
    const proxied = await ctx.appWith({ trustProxy: 1 }).request('/api/messages', {
      ...multipart({ ...valid, name: 'Proxied' }),
      headers,
    })
    expect(proxied.status).toBe(200)
    const rows = await ctx.db
      .selectFrom('messages')
      .select(['name', 'ip'])
      .where('name', 'in', ['Direct', 'Proxied'])
      .orderBy('id')
      .execute()
    expect(rows).toEqual([
      { name: 'Direct', ip: null },
      { name: 'Proxied', ip: '198.51.100.7' },
    ])
  })

  describe('bad input gets 422 with every field in the request language', () => {
    const cases: {
      body: Record<string, string>
      en: Record<string, string>
      ar: Record<string, string>
    }[] = [
      {
        body: {},
        en: {
          name: 'Name field is required',
          phone_number: 'Phone number field is required',
          message: 'Message field is required',
        },
        ar: {
          name: 'حقل الاسم مطلوب',
          phone_number: 'حقل رقم الهاتف مطلوب',
          message: 'حقل الرسالة مطلوب',
        },
      },
      {
        body: { name: '   ', phone_number: 'call me', message: valid.message },
        en: { name: 'Name field is required', phone_number: 'The phone number is not valid' },
        ar: { name: 'حقل الاسم مطلوب', phone_number: 'رقم الهاتف غير صالح' },
      },
      {
        body: { ...valid, name: 'x'.repeat(MESSAGE_LIMITS.name + 1) },
        en: { name: 'Name may not be longer than 100 characters' },
        ar: { name: 'يجب ألا يتجاوز طول الاسم 100 حرف' },
      },
      {
        body: { ...valid, message: 'x'.repeat(MESSAGE_LIMITS.message + 1) },
        en: { message: 'Message may not be longer than 2000 characters' },
        ar: { message: 'يجب ألا يتجاوز طول الرسالة 2,000 حرف' },
      },
      {
        body: { ...valid, phone_number: '1'.repeat(MESSAGE_LIMITS.phone_number + 1) },
        en: { phone_number: 'Phone number may not be longer than 32 characters' },
        ar: { phone_number: 'يجب ألا يتجاوز طول رقم الهاتف 32 حرفًا' },
      },
    ]
    for (const [i, c] of cases.entries()) {
      for (const locale of ['en', 'ar'] as const) {
        it(`case ${i + 1} (${locale})`, async () => {
          const res = await post(`?local=${locale}`, multipart(c.body))
          expect(res.status).toBe(422)
          const reply = v.parse(ValidationErrorReplySchema, await res.json())
          const expected = c[locale]
          expect(reply.errors).toEqual(
            Object.fromEntries(Object.entries(expected).map(([k, m]) => [k, [m]])),
          )
          expect(reply.message).toBe(Object.values(expected)[0])
        })
      }
    }

    it('stores nothing when the input is bad', async () => {
      const before = await ctx.db
        .selectFrom('messages')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
      await post('', multipart({ name: 'Nobody' }))
      const after = await ctx.db
        .selectFrom('messages')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
      expect(Number(after.n)).toBe(Number(before.n))
    })
  })

  it('answers 400 for a body it cannot read and 413 for an oversized one', async () => {
    const broken = await post('?local=ar', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"name": ',
    })
    expect(broken.status).toBe(400)
    expect(v.parse(MessageReplySchema, await broken.json()).message).toBe('تعذّرت قراءة الطلب.')

    const huge = await post('', multipart({ ...valid, message: 'x'.repeat(100 * 1024) }))
    expect(huge.status).toBe(413)
    expect(v.parse(MessageReplySchema, await huge.json()).message).toBe('The request is too large.')
  })
})
