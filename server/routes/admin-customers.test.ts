import * as v from 'valibot'
import { expect, it } from 'vitest'
import {
  AuditPageReplySchema,
  CustomerActionReplySchema,
  CustomerDetailReplySchema,
  CustomerSearchReplySchema,
} from '../../src/contract/console-customers'
import { PaymentLogPageSchema } from '../../src/contract/wallet'
import { runOperator } from '../test/cli'
import { post, read, signedIn } from '../test/console'
import { describeEachDatabase } from '../test/context'
import { balanceOf, customer, get, twoServers } from '../test/orders'

describeEachDatabase('console: customers and audit log', (ctx) => {
  const detailOf = async (id: number, cookie: string) => {
    const res = await read(ctx.app, `customers/${id}`, cookie)
    expect(res.status).toBe(200)
    return v.parse(CustomerDetailReplySchema, await res.json()).data
  }
  const auditOf = async (query: string, cookie: string) => {
    const res = await read(ctx.app, `audit?${query}`, cookie)
    expect(res.status, await res.clone().text()).toBe(200)
    return v.parse(AuditPageReplySchema, await res.json())
  }

  it('finds customers by username, phone or e-mail, in any case, a page at a time', async () => {
    const { cookie } = await signedIn(ctx)
    const buyer = await customer(ctx)
    const { username, phone_number, email } = buyer.user
    for (const q of [username.toUpperCase(), phone_number.slice(-7), email!.toUpperCase()]) {
      const res = await read(ctx.app, `customers?q=${encodeURIComponent(q)}`, cookie)
      const page = v.parse(CustomerSearchReplySchema, await res.json())
      expect(
        page.data.map((c) => c.username),
        q,
      ).toEqual([username])
      expect(page.data[0]).toMatchObject({ phone_number, email, balance: 100, type: 'CUSTOMER' })
    }
    // A wildcard typed is a character, not everything.
    const none = await read(ctx.app, `customers?q=${encodeURIComponent('%')}`, cookie)
    expect(v.parse(CustomerSearchReplySchema, await none.json()).data).toEqual([])
    const all = v.parse(
      CustomerSearchReplySchema,
      await (await read(ctx.app, 'customers?page=1', cookie)).json(),
    )
    expect(all.total).toBeGreaterThan(1)
    expect(all.data[0]!.id).toBe(buyer.user.id) // newest first
    expect((await read(ctx.app, 'customers/999999', cookie)).status).toBe(404)
  })

  it('credits with a reason: the customer reads it in the wallet, the audit keeps before and after', async () => {
    const { account, cookie } = await signedIn(ctx)
    const operator = account.username
    const buyer = await customer(ctx, { balance: '10' })
    const app = ctx.appWith({ trustProxy: 1 })
    const res = await app.request(`/api/admin/customers/${buyer.user.id}/balance`, {
      method: 'POST',
      body: JSON.stringify({
        direction: 'credit',
        amount: '2.5',
        reason: 'Refund of a late order',
      }),
      headers: {
        'content-type': 'application/json',
        origin: 'http://localhost',
        'x-forwarded-for': '203.0.113.7',
        cookie,
      },
    })
    expect(res.status, await res.clone().text()).toBe(200)
    const reply = v.parse(CustomerActionReplySchema, await res.json())
    expect(reply.message).toBe(`2.5 USD added to the wallet of ${buyer.user.username}.`)
    expect(reply.data.balance).toBe(12.5)
    expect(await balanceOf(ctx, buyer.user.id)).toBe(12_500_000n)

    // The customer's own wallet shows the line with the reason.
    const wallet = v.parse(
      PaymentLogPageSchema,
      await (await get(ctx.app, 'payment-logs', buyer.token)).json(),
    )
    expect(wallet.data[0]).toMatchObject({
      status: 'Charged',
      name: 'Refund of a late order',
      value: 2.5,
      current_balance: 12.5,
    })
    expect(wallet.user.current_balance).toBe(12.5)
    // And the console's ledger of the customer the same line.
    const ledger = v.parse(
      PaymentLogPageSchema,
      await (await read(ctx.app, `customers/${buyer.user.id}/ledger`, cookie)).json(),
    )
    expect(ledger.data[0]!.name).toBe('Refund of a late order')

    const audit = await auditOf(`operator=${operator}&action=wallet:credit`, cookie)
    expect(audit.data).toHaveLength(1)
    expect(audit.data[0]).toMatchObject({
      actor: `console:${operator}`,
      action: 'wallet:credit',
      username: buyer.user.username,
      address: '203.0.113.7',
      details: {
        reason: 'Refund of a late order',
        before: { balance: 10 },
        after: { balance: 12.5 },
      },
    })
    expect(audit.actions).toContain('wallet:credit')
    expect(audit.actors).toContain(`console:${operator}`)
  })

  it('never debits below zero, and says so in the operator language', async () => {
    const { cookie } = await signedIn(ctx)
    const buyer = await customer(ctx, { balance: '5' })
    const res = await post(
      ctx.app,
      `customers/${buyer.user.id}/balance?local=ar`,
      { direction: 'debit', amount: '5.01', reason: 'Duplicate top-up' },
      cookie,
    )
    expect(res.status).toBe(409)
    expect(((await res.json()) as { message: string }).message).toContain('5 USD')
    expect(await balanceOf(ctx, buyer.user.id)).toBe(5_000_000n)
    const audit = await auditOf(`subject=${buyer.user.username}`, cookie)
    expect(audit.data).toEqual([])

    // Bad input: what is wrong, per field.
    const bad = await post(
      ctx.app,
      `customers/${buyer.user.id}/balance`,
      { direction: 'steal', amount: '-3', reason: ' ' },
      cookie,
    )
    expect(bad.status).toBe(422)
    const errors = ((await bad.json()) as { errors: Record<string, string[]> }).errors
    expect(Object.keys(errors).sort()).toEqual(['amount', 'direction', 'reason'])
    // A form posted from another site (a CORS simple request): refused before anything moves.
    const cross = await ctx.app.request(`/api/admin/customers/${buyer.user.id}/balance`, {
      method: 'POST',
      body: new URLSearchParams({ direction: 'debit', amount: '1', reason: 'x' }),
      headers: { origin: 'https://evil.example', cookie },
    })
    expect(cross.status).toBe(403)
    expect(await balanceOf(ctx, buyer.user.id)).toBe(5_000_000n)
  })

  it('two debits at the same moment never overdraw the wallet', async () => {
    const { cookie } = await signedIn(ctx)
    const buyer = await customer(ctx, { balance: '10' })
    const { apps, close } = twoServers(ctx)
    try {
      const results = await Promise.all(
        Array.from({ length: 4 }, (_, i) =>
          post(
            apps[i % 2]!,
            `customers/${buyer.user.id}/balance`,
            { direction: 'debit', amount: '4', reason: `Correction ${i}` },
            cookie,
          ),
        ),
      )
      expect(results.map((r) => r.status).sort()).toEqual([200, 200, 409, 409])
    } finally {
      await close()
    }
    expect(await balanceOf(ctx, buyer.user.id)).toBe(2_000_000n)
    const lines = await ctx.db
      .selectFrom('wallet_logs')
      .select(['value', 'current_balance'])
      .where('user_id', '=', buyer.user.id)
      .where('status', '=', 'Discounted')
      .orderBy('id')
      .execute()
    expect(lines.map((l) => [l.value, l.current_balance])).toEqual([
      [4_000_000n, 6_000_000n],
      [4_000_000n, 2_000_000n],
    ])
    const audited = await auditOf(`subject=${buyer.user.username}&action=wallet:debit`, cookie)
    expect(audited.total).toBe(2)
  })

  it('disables, enables, signs out and sets the account type, each audited', async () => {
    const { account, cookie } = await signedIn(ctx)
    const operator = account.username
    const buyer = await customer(ctx)
    const path = `customers/${buyer.user.id}`
    expect(await detailOf(buyer.user.id, cookie)).toMatchObject({
      sessions: 1,
      disabled_at: null,
      type: 'CUSTOMER',
    })

    const off = await post(ctx.app, `${path}/disable`, { reason: 'Chargeback' }, cookie)
    expect(off.status).toBe(200)
    const disabled = v.parse(CustomerActionReplySchema, await off.json())
    expect(disabled.data.disabled_at).not.toBeNull()
    expect(disabled.data.sessions).toBe(0)
    expect((await get(ctx.app, 'payment-logs', buyer.token)).status).toBe(401)

    const on = await post(ctx.app, `${path}/enable`, {}, cookie)
    expect(v.parse(CustomerActionReplySchema, await on.json()).data.disabled_at).toBeNull()

    const again = await customer(ctx)
    const revoked = await post(ctx.app, `customers/${again.user.id}/revoke-sessions`, {}, cookie)
    expect(v.parse(CustomerActionReplySchema, await revoked.json()).message).toContain('(1 ')
    expect((await get(ctx.app, 'payment-logs', again.token)).status).toBe(401)

    const typed = await post(ctx.app, `${path}/type?local=ar`, { type: 'COMPANY' }, cookie)
    const company = v.parse(CustomerActionReplySchema, await typed.json())
    expect(company.data.type).toBe('COMPANY')
    expect(company.message).toContain('حساب شركة')
    const badType = await post(ctx.app, `${path}/type`, { type: 'ADMIN' }, cookie)
    expect(badType.status).toBe(422)

    const trail = await auditOf(`subject=${buyer.user.username}`, cookie)
    expect(trail.data.map((a) => a.action)).toEqual([
      'users:set-type',
      'users:enable',
      'users:disable',
    ])
    expect(trail.data[0]!.details).toMatchObject({
      before: { type: 'CUSTOMER' },
      after: { type: 'COMPANY' },
    })
    expect(trail.data[2]!.details).toMatchObject({
      reason: 'Chargeback',
      sessions_revoked: 1,
      before: { disabled_at: null },
    })
    expect(trail.data.every((a) => a.actor === `console:${operator}`)).toBe(true)
  })

  it('the CLI writes through the same services: its lines are in the same trail', async () => {
    const { cookie } = await signedIn(ctx)
    const buyer = await customer(ctx, { balance: '3' })
    const ran = await runOperator(ctx, 'users:set-type', buyer.user.username, 'company')
    expect(ran.code, ran.stderr).toBe(0)
    const debit = await runOperator(
      ctx,
      'wallet:debit',
      buyer.user.username,
      '1',
      '--reason',
      'Fee',
    )
    expect(debit.code, debit.stderr).toBe(0)
    const trail = await auditOf(`subject=${buyer.user.username}`, cookie)
    expect(trail.data.map((a) => [a.action, a.address])).toEqual([
      ['wallet:debit', null],
      ['users:set-type', null],
    ])
    expect(trail.data[0]!.details).toMatchObject({ before: { balance: 3 }, after: { balance: 2 } })
  })

  it('filters the audit log by date in the store zone, and pages it', async () => {
    const { account, cookie } = await signedIn(ctx)
    const operator = account.username
    const today = (await auditOf(`operator=${operator}`, cookie)).data[0]!
    expect(today.action).toBe('console.sign_in')
    // Made before the session was, and from where all the same (app.request has no socket).
    const app = ctx.appWith({ trustProxy: 1 })
    const res = await app.request('/api/admin/sign-in', {
      method: 'POST',
      body: JSON.stringify({
        username: account.username,
        password: account.password,
        code: account.totp.generate({ timestamp: ctx.clock.now().getTime() + 30_000 }),
      }),
      headers: {
        'content-type': 'application/json',
        origin: 'http://localhost',
        'x-forwarded-for': '198.51.100.4',
      },
    })
    expect(res.status).toBe(200)
    const signIn = (await auditOf(`operator=${operator}&action=console.sign_in`, cookie)).data[0]!
    expect(signIn.address).toBe('198.51.100.4')
    const day = today.date
    expect(
      (await auditOf(`operator=${operator}&start_date=${day}&end_date=${day}`, cookie)).total,
    ).toBe(2)
    expect(
      (await auditOf(`operator=${operator}&start_date=2001-01-01&end_date=2001-01-02`, cookie))
        .total,
    ).toBe(0)
    expect((await auditOf('subject=nobody-at-all', cookie)).total).toBe(0)
    const all = await auditOf('page=1', cookie)
    expect(all.per_page).toBe(25)
    expect(all.data.length).toBeLessThanOrEqual(25)
  })
})
