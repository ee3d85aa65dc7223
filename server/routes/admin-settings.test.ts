import * as v from 'valibot'
import { expect, it } from 'vitest'
import { setKeys } from '../../src/contract/payment-methods'
import { SettingsReplySchema, SettingsSavedReplySchema } from '../../src/contract/console-settings'
import { ContactReplySchema, AboutReplySchema } from '../../src/contract/site'
import { PaymentInfoReplySchema } from '../../src/contract/wallet'
import { runOperator } from '../test/cli'
import { post, read, signedIn } from '../test/console'
import { describeEachDatabase, type TestContext } from '../test/context'
import { get } from '../test/orders'

/** The payments form as the Settings screen sends it: every field, the demo's values. */
const PAYMENTS = {
  // Each method's tax is required; the others than these are off and untaxed.
  ...Object.fromEntries(setKeys('_tax').map((key) => [key, '0'])),
  usdt_on: '1',
  usdt_trc20: 'TNTYuKfobXw9Qphr49rwuo7uWjvmmUWkcJ',
  usdt_bep20: '0x66F15A81BFE18C3DB3DDD3C85F463223F58823F0',
  usdt_tax: '1.5',
  whish_money_on: '1',
  whish_money_text: 'Send it by Whish to +961 70 000 100.',
  whish_money_text_ar: 'أرسل المبلغ عبر Whish إلى ‎+961 70 000 100‎.',
  whish_money_tax: '2',
  omt_pay_on: '0',
  omt_pay_text: 'Pay at OMT.',
  omt_pay_tax: '3',
}

async function auditOf(ctx: TestContext, action: string) {
  const row = await ctx.db
    .selectFrom('audit_log')
    .selectAll()
    .where('action', '=', action)
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow()
  return { ...row, details: JSON.parse(row.details) as Record<string, Record<string, unknown>> }
}

describeEachDatabase('console settings', (ctx) => {
  it("refuses an operator's every settings call, in the operator's language", async () => {
    const { cookie } = await signedIn(ctx, 'operator')
    const refused = await read(ctx.app, 'settings?local=ar', cookie)
    expect(refused.status).toBe(403)
    expect(((await refused.json()) as { message: string }).message).toBe(
      'لا يمكن القيام بذلك إلا لمالك المتجر.',
    )
    for (const form of ['payments', 'contact', 'texts']) {
      const res = await post(ctx.app, `settings/${form}`, PAYMENTS, cookie)
      expect(res.status, form).toBe(403)
    }
    const { cookie: owner } = await signedIn(ctx, 'owner')
    const res = await read(ctx.app, 'settings', owner)
    expect(res.status).toBe(200)
    const { data } = v.parse(SettingsReplySchema, await res.json())
    expect(data.payments).toMatchObject({
      usdt_on: true,
      whish_money_on: true,
      usdt_tax_percentage: 1.5,
    })
  })

  it('saves the payment methods: texts per language, a method off, audited before and after', async () => {
    const { account, cookie } = await signedIn(ctx, 'owner')
    const res = await post(ctx.app, 'settings/payments', PAYMENTS, cookie)
    expect(res.status, await res.clone().text()).toBe(200)
    const saved = v.parse(SettingsSavedReplySchema, await res.json())
    expect(saved.message).toBe('Settings saved.')
    // The BEP20 address is kept in its one spelling.
    expect(saved.data.payments.usdt_bep20).toBe('0x66f15a81bfe18c3db3ddd3c85f463223f58823f0')
    expect(saved.data.payments.omt_pay_on).toBe(false)

    const info = async (locale: string) =>
      v.parse(
        PaymentInfoReplySchema,
        await (await get(ctx.app, `payments/info?local=${locale}`)).json(),
      ).data
    expect(await info('ar')).toMatchObject({
      whish_money_text: PAYMENTS.whish_money_text_ar,
      omt_pay_text: null,
      whish_money_tax_percentage: 2,
    })
    expect((await info('en')).whish_money_text).toBe(PAYMENTS.whish_money_text)

    const audit = await auditOf(ctx, 'settings:payments')
    expect(audit.actor).toBe(`console:${account.username}`)
    expect(audit.details.before!.omt_pay_on).toBe(1)
    expect(audit.details.after!.omt_pay_on).toBe(0)
    expect(audit.details.after!.whish_money_text_ar).toBe(PAYMENTS.whish_money_text_ar)

    // A receipt top-up by the method switched off is refused.
    const { customer } = await import('../test/orders')
    const buyer = await customer(ctx)
    const form = new FormData()
    form.append('name', 'OMT_PAY')
    form.append('value', '10')
    const refused = await ctx.app.request('/api/charging-processes', {
      method: 'POST',
      body: form,
      headers: { authorization: `Bearer ${buyer.token}` },
    })
    expect(refused.status).toBe(422)
  })

  it('names a mistyped USDT address and a bad tax in the caller language, saving nothing', async () => {
    const { cookie } = await signedIn(ctx, 'owner')
    // The addresses' row and each method's row, as stored.
    const stored = async () => [
      await ctx.db.selectFrom('payment_settings').selectAll().executeTakeFirstOrThrow(),
      await ctx.db.selectFrom('payment_methods').selectAll().orderBy('method').execute(),
    ]
    const before = await stored()
    // One character changed: the Tron checksum fails.
    const typo = { ...PAYMENTS, usdt_trc20: 'TNTYuKfobXw9Qphr49rwuo7uWjvmmUWkcK' }
    const res = await post(ctx.app, 'settings/payments?local=ar', typo, cookie)
    expect(res.status).toBe(422)
    const body = (await res.json()) as { message: string; errors: Record<string, string[]> }
    expect(body.errors.usdt_trc20).toEqual(['هذا ليس عنوان TRC20: تحقّق منه حرفًا حرفًا.'])

    const shape = await post(
      ctx.app,
      'settings/payments',
      {
        ...PAYMENTS,
        usdt_bep20: '0x123',
        whish_money_tax: '120',
      },
      cookie,
    )
    expect(shape.status).toBe(422)
    const errors = ((await shape.json()) as { errors: Record<string, string[]> }).errors
    expect(errors.usdt_bep20).toEqual([
      'This is not a BEP20 address: check it character by character.',
    ])
    expect(errors.whish_money_tax).toEqual(['Whish Money tax must be a percentage from 0 to 100.'])

    const on = await post(
      ctx.app,
      'settings/payments',
      {
        ...PAYMENTS,
        whish_money_text: undefined,
      },
      cookie,
    )
    expect(((await on.json()) as { errors: Record<string, string[]> }).errors).toEqual({
      whish_money_text: ['Whish Money text (English) field is required'],
    })
    expect(await stored()).toEqual(before)
  })

  it('saves the contact numbers as +961…, and the store shows them in either language', async () => {
    const { cookie } = await signedIn(ctx, 'owner')
    const bad = await post(
      ctx.app,
      'settings/contact?local=ar',
      {
        first_phone_number: '12',
      },
      cookie,
    )
    expect(bad.status).toBe(422)
    expect(((await bad.json()) as { errors: Record<string, string[]> }).errors).toEqual({
      first_phone_number: ['رقم الهاتف غير صالح'],
    })
    const res = await post(
      ctx.app,
      'settings/contact',
      {
        email: 'Shop@Example.com',
        first_phone_number: '03 123 456',
        whatsapp: '+961 70 000 300',
        instagram: 'https://instagram.com/store',
      },
      cookie,
    )
    expect(res.status, await res.clone().text()).toBe(200)
    const shown = v.parse(
      ContactReplySchema,
      await (await get(ctx.app, 'contact-us/info?local=ar')).json(),
    ).data
    expect(shown).toMatchObject({
      email: 'shop@example.com',
      first_phone_number: '+9613123456',
      second_phone_number: null,
      whatsapp: '+96170000300',
      instagram: 'https://instagram.com/store',
      facebook: null,
    })
    const audit = await auditOf(ctx, 'settings:contact')
    expect(audit.details.after!.first_phone_number).toBe('+9613123456')
    expect(audit.details.before).toHaveProperty('first_phone_number')
  })

  it('saves the about text in both languages', async () => {
    const { cookie } = await signedIn(ctx, 'owner')
    const res = await post(
      ctx.app,
      'settings/texts',
      {
        about_us_text_en: 'We sell codes.',
        about_us_text_ar: 'نبيع الرموز.',
      },
      cookie,
    )
    expect(res.status, await res.clone().text()).toBe(200)
    const about = await get(ctx.app, 'about-us/info?local=ar')
    expect(v.parse(AboutReplySchema, await about.json()).data.about_us_text).toBe('نبيع الرموز.')
    expect((await auditOf(ctx, 'settings:texts')).details.after).toEqual({
      about_us_text_en: 'We sell codes.',
      about_us_text_ar: 'نبيع الرموز.',
    })
  })

  it("keeps the CLI's settings:payments on the same service, audited too", async () => {
    const on = await runOperator(ctx, 'settings:payments', '--omt-text', 'Pay at OMT.')
    expect(on.code, on.stderr).toBe(0)
    expect((await auditOf(ctx, 'settings:payments')).details.after).toMatchObject({ omt_pay_on: 1 })
    const off = await runOperator(ctx, 'settings:payments', '--omt-text', '')
    expect(off.code, off.stderr).toBe(0)
    expect((await auditOf(ctx, 'settings:payments')).details.after).toMatchObject({
      omt_pay_text: null,
      omt_pay_on: 0,
    })
    const typo = await runOperator(
      ctx,
      'settings:payments',
      '--usdt-trc20',
      'TNTYuKfobXw9Qphr49rwuo7uWjvmmUWkcK',
    )
    expect(typo.code).toBe(1)
    expect(typo.stderr).toContain('This is not a TRC20 address')
  })
})
