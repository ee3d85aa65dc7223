import * as v from 'valibot'
import { expect, it } from 'vitest'
import { CurrencyReplySchema, ProfileReplySchema } from '../../src/contract/profile'
import { MessageReplySchema, ValidationErrorReplySchema } from '../../src/contract/common'
import { toMicros } from '../../src/domain/money'
import { postForm, signUp } from '../test/accounts'
import { describeEachDatabase } from '../test/context'

describeEachDatabase('profile API', (ctx) => {
  const profile = async (token: string) => {
    const res = await ctx.app.request('/api/profile?test=/Orders', {
      headers: { authorization: `Bearer ${token}` },
    })
    expect(res.status).toBe(200)
    return v.parse(ProfileReplySchema, await res.json()).data
  }

  async function accountWith(balance: string, currency: 'USD' | 'LBP' = 'USD') {
    const { token, user } = await signUp(ctx)
    const row = await ctx.db
      .updateTable('users')
      .set({ balance: toMicros(balance), currency })
      .where('username', '=', user.username)
      .returning('id')
      .executeTakeFirstOrThrow()
    return { token, user, id: row.id }
  }

  const logsOf = (userId: number) =>
    ctx.db
      .selectFrom('wallet_logs')
      .select([
        'status',
        'name',
        'name_ar',
        'previous_balance',
        'value',
        'current_balance',
        'currency',
      ])
      .where('user_id', '=', userId)
      .orderBy('id')
      .execute()

  it('shows the API token and IP whitelist once set', async () => {
    const { token } = await accountWith('12.5')
    expect(await profile(token)).toMatchObject({ token: null, ip_whitelist: null })
    const apiToken = '4412|CTW0WQnwCvNShLzGdA0Zh2m3ED0RDsoAtBwgCGuC'
    const saved = await postForm(
      ctx.app,
      'user/token',
      { token: apiToken, ip_whitelist: '203.0.113.7\n198.51.100.0/24' },
      { token },
    )
    expect(saved.status).toBe(200)
    expect(await profile(token)).toMatchObject({
      balance: 12.5,
      token: apiToken,
      ip_whitelist: '203.0.113.7\n198.51.100.0/24',
    })
  })

  it('change/locale stores the language and answers in it', async () => {
    const { token } = await signUp(ctx)
    const res = await postForm(ctx.app, 'change/locale?local=en', { locale: 'ar' }, { token })
    expect(res.status).toBe(200)
    expect(v.parse(MessageReplySchema, await res.json()).message).toBe('تم تغيير اللغة.')
    expect((await profile(token)).locale).toBe('ar')

    const back = await postForm(ctx.app, 'change/locale?local=ar', { locale: 'en' }, { token })
    expect(v.parse(MessageReplySchema, await back.json()).message).toBe(
      'The language has been changed.',
    )
    expect((await profile(token)).locale).toBe('en')

    const bad = await postForm(ctx.app, 'change/locale', { locale: 'fr' }, { token })
    expect(bad.status).toBe(422)
    expect(v.parse(ValidationErrorReplySchema, await bad.json()).errors).toEqual({
      locale: ['Language is not valid'],
    })
  })

  it('change-currency converts at LBP_RATE and logs the conversion both ways', async () => {
    const { token, id } = await accountWith('100')
    const res = await postForm(
      ctx.app,
      'change-currency?local=en',
      { currency: 'LBP', locale: 'en' },
      { token },
    )
    expect(res.status).toBe(200)
    const reply = v.parse(CurrencyReplySchema, await res.json())
    expect(reply.message).toBe('The currency has been changed.')
    expect(reply.data).toMatchObject({ currency: 'LBP', balance: 8_950_000 })
    expect(await profile(token)).toMatchObject({ currency: 'LBP', balance: 8_950_000 })

    const name = 'Currency change: USD → LBP (1 USD = 89500 LBP)'
    const name_ar = 'تغيير العملة من USD إلى LBP (1 USD = 89500 LBP)'
    expect(await logsOf(id)).toEqual([
      {
        status: 'Discounted',
        name,
        name_ar,
        previous_balance: 100_000_000n,
        value: 100_000_000n,
        current_balance: 0n,
        currency: 'USD',
      },
      {
        status: 'Charged',
        name,
        name_ar,
        previous_balance: 0n,
        value: 8_950_000_000_000n,
        current_balance: 8_950_000_000_000n,
        currency: 'LBP',
      },
    ])

    const back = await postForm(ctx.app, 'change-currency', { currency: 'USD' }, { token })
    expect(v.parse(CurrencyReplySchema, await back.json()).data).toMatchObject({
      currency: 'USD',
      balance: 100,
    })
    expect(await logsOf(id)).toHaveLength(4)
  })

  it('rounds LBP to USD down to the micro-unit and uses the configured rate', async () => {
    const { token, id } = await accountWith('123.456789', 'LBP')
    const res = await postForm(ctx.app, 'change-currency', { currency: 'USD' }, { token })
    // 123456789 micro-LBP / 89500 = 1379.405… micro-USD
    expect(v.parse(CurrencyReplySchema, await res.json()).data.balance).toBe(0.001379)
    const logs = await logsOf(id)
    expect(logs.at(-1)).toMatchObject({ value: 1379n, currency: 'USD' })

    const other = await accountWith('2')
    const app = ctx.appWith({ lbpRate: 100_000 })
    const converted = await postForm(
      app,
      'change-currency',
      { currency: 'LBP' },
      {
        token: other.token,
      },
    )
    expect(v.parse(CurrencyReplySchema, await converted.json()).data.balance).toBe(200_000)
  })

  it('changes nothing when asked for the current currency, or for an unknown one', async () => {
    const { token, id } = await accountWith('5')
    const same = await postForm(ctx.app, 'change-currency', { currency: 'USD' }, { token })
    expect(same.status).toBe(200)
    expect(v.parse(CurrencyReplySchema, await same.json()).data).toMatchObject({
      currency: 'USD',
      balance: 5,
    })
    const bad = await postForm(ctx.app, 'change-currency?local=ar', { currency: 'EUR' }, { token })
    expect(bad.status).toBe(422)
    expect(v.parse(ValidationErrorReplySchema, await bad.json()).errors).toEqual({
      currency: ['قيمة العملة غير صالحة'],
    })
    expect(await logsOf(id)).toEqual([])
  })

  it('switches an empty wallet without writing history', async () => {
    const { token, id } = await accountWith('0')
    const res = await postForm(ctx.app, 'change-currency', { currency: 'LBP' }, { token })
    expect(v.parse(CurrencyReplySchema, await res.json()).data).toMatchObject({
      currency: 'LBP',
      balance: 0,
    })
    expect(await logsOf(id)).toEqual([])
  })

  it('converts balances beyond 2^53 micro-units exactly, up to the database limit', async () => {
    // 200,000 USD is 1.79e16 micro-LBP: above Number.MAX_SAFE_INTEGER, exact as a bigint.
    const { token, id } = await accountWith('200000')
    const res = await postForm(ctx.app, 'change-currency?local=en', { currency: 'LBP' }, { token })
    expect(res.status).toBe(200)
    const row = await ctx.db
      .selectFrom('users')
      .select(['balance', 'currency'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow()
    expect(row).toEqual({ balance: 17_900_000_000_000_000n, currency: 'LBP' })
    expect((await logsOf(id)).at(-1)).toMatchObject({ value: 17_900_000_000_000_000n })
    const back = await postForm(ctx.app, 'change-currency', { currency: 'USD' }, { token })
    expect(v.parse(CurrencyReplySchema, await back.json()).data.balance).toBe(200_000)

    // What the bigint column cannot hold is still refused, and nothing changes.
    const huge = await accountWith('9000000000000')
    const refused = await postForm(
      ctx.app,
      'change-currency?local=en',
      { currency: 'LBP' },
      { token: huge.token },
    )
    expect(refused.status).toBe(422)
    expect(v.parse(MessageReplySchema, await refused.json()).message).toBe(
      'The balance is too large to convert. Please contact support.',
    )
    expect(await profile(huge.token)).toMatchObject({ currency: 'USD', balance: 9_000_000_000_000 })
  })

  it('converts once when the same switch arrives twice at the same time', async () => {
    const { token, id } = await accountWith('10')
    const results = await Promise.all(
      [1, 2, 3].map(() => postForm(ctx.app, 'change-currency', { currency: 'LBP' }, { token })),
    )
    for (const r of results) expect(r.status).toBe(200)
    expect(await profile(token)).toMatchObject({ currency: 'LBP', balance: 895_000 })
    expect(await logsOf(id)).toHaveLength(2)
  })
})
