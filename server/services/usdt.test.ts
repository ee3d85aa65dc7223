import * as v from 'valibot'
import { expect, it } from 'vitest'
import { UsdtPaymentReplySchema } from '../../src/contract/wallet'
import type { ChainTransfer, ChainWatcher } from '../adapters/chains'
import { runOperator } from '../test/cli'
import { describeEachDatabase, type TestContext } from '../test/context'
import { balanceOf, customer, get } from '../test/orders'
import { postForm } from '../test/accounts'
import { recordTransfer, requestUsdt, watchOnce } from './usdt'

const MINUTE = 60_000
const timing = { requestMs: 30 * MINUTE, graceMs: 120 * MINUTE }

function request(ctx: TestContext, token: string, fields: Record<string, string>, query = '') {
  return postForm(ctx.app, `wallet/request-payment${query}`, fields, { token })
}

/** A transfer as a watcher reports it: confirmed, exact, to the demo's TRC20 address. */
function transfer(over: Partial<ChainTransfer> & { amountMicros: bigint }): ChainTransfer {
  return {
    network: 'trc20',
    txHash: 'a'.repeat(64),
    logIndex: 0,
    from: 'TSenderSenderSenderSenderSenderSen',
    to: 'TNTYuKfobXw9Qphr49rwuo7uWjvmmUWkcJ',
    exact: true,
    blockNumber: 1000n,
    confirmations: 25,
    confirmed: true,
    timestamp: new Date(),
    ...over,
  }
}

describeEachDatabase('USDT top-ups', (ctx) => {
  const requested = async (token: string, amount = '10', network = 'trc20') => {
    const res = await request(ctx, token, { amount, network })
    expect(res.status, await res.clone().text()).toBe(200)
    return v.parse(UsdtPaymentReplySchema, await res.json())
  }

  it('answers an address, a QR payload and an exact amount in [amount, amount + 1)', async () => {
    const { token } = await customer(ctx)
    const payment = await requested(token, '10', 'bep20')
    expect(payment.wallet_address).toBe('0x66f15a81bfe18c3db3ddd3c85f463223f58823f0')
    expect(Number(payment.unique_amount)).toBeGreaterThan(10)
    expect(Number(payment.unique_amount)).toBeLessThan(11)
    expect(payment.unique_amount).toMatch(/^10\.\d{1,4}$/)
    expect(payment.qr_code_url).toMatch(
      /^ethereum:0x55d398326f99059ff775485246999027b3197955@56\/transfer\?address=0x66f1.*&uint256=10\d{18}$/,
    )
    expect(payment).toMatchObject({ paid: false, expired: false, network: 'bep20' })
    // One payment at a time: asking again gives the same one back.
    const again = await requested(token, '25', 'trc20')
    expect(again.payment_id).toBe(payment.payment_id)
  })

  it('gives 1,000 requests for the same amount, at once, 1,000 different amounts', async () => {
    const people = await Promise.all(Array.from({ length: 1000 }, () => customer(ctx)))
    const replies = await Promise.all(people.map((p) => requested(p.token, '10')))
    const amounts = new Set(replies.map((r) => r.unique_amount))
    expect(amounts.size).toBe(1000)
    for (const amount of amounts) {
      expect(Number(amount)).toBeGreaterThanOrEqual(10)
      expect(Number(amount)).toBeLessThan(11)
    }
  })

  it('keeps an expired amount from anyone else until its watch window ends', async () => {
    const first = await customer(ctx)
    const now = ctx.clock.now()
    const held = await requestUsdt(
      ctx.db,
      first.user,
      { amount: 20_000_000n, network: 'trc20' },
      {
        chains: ctx.config.chains,
        timing,
        now,
        fraction: () => 42,
      },
    )
    expect(held.unique_amount).toBe(20_004_200n)
    // Expired, inside the window: slot 42 is still held, the next one is taken.
    const second = await customer(ctx)
    const picks = [42, 43]
    const next = await requestUsdt(
      ctx.db,
      second.user,
      { amount: 20_000_000n, network: 'trc20' },
      {
        chains: ctx.config.chains,
        timing,
        now: new Date(now.getTime() + 40 * MINUTE),
        fraction: () => picks.shift()!,
      },
    )
    expect(next.unique_amount).toBe(20_004_300n)
    // After the window, the amount is free again.
    const third = await customer(ctx)
    const later = await requestUsdt(
      ctx.db,
      third.user,
      { amount: 20_000_000n, network: 'trc20' },
      {
        chains: ctx.config.chains,
        timing,
        now: new Date(now.getTime() + 151 * MINUTE),
        fraction: () => 42,
      },
    )
    expect(later.unique_amount).toBe(20_004_200n)
  })

  it('credits a transfer reported ten times once, net of the tax', async () => {
    const { token, user } = await customer(ctx, { balance: '0' })
    const payment = await requested(token, '100')
    const amountMicros = BigInt(Math.round(Number(payment.unique_amount) * 1e6))
    const seen = transfer({ amountMicros, txHash: 'b'.repeat(64) })
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        recordTransfer(ctx.db, seen, { rate: 89_500, now: new Date() }),
      ),
    )
    expect(results.filter((r) => r === 'CREDITED')).toHaveLength(1)
    expect(results.filter((r) => r === 'duplicate')).toHaveLength(9)
    // 1.5 % tax, rounded down to the micro-USDT.
    const credited = amountMicros - (amountMicros * 1_500_000n + 99_999_999n) / 100_000_000n
    expect(await balanceOf(ctx, user.id)).toBe(credited)
    const check = v.parse(
      UsdtPaymentReplySchema,
      await (await get(ctx.app, `wallet/check-payment/${payment.payment_id}`, token)).json(),
    )
    expect(check.paid).toBe(true)
    // Another customer cannot see it.
    const other = await customer(ctx)
    expect(
      (await get(ctx.app, `wallet/check-payment/${payment.payment_id}`, other.token)).status,
    ).toBe(404)
  })

  it('records late, extra, stray, dust and unconfirmed transfers without crediting them', async () => {
    const { token, user } = await customer(ctx, { balance: '0' })
    const payment = await requested(token, '30')
    const amountMicros = BigInt(Math.round(Number(payment.unique_amount) * 1e6))
    const late = new Date(Date.parse(payment.expires_at) + MINUTE)
    const now = { rate: 89_500, now: new Date() }
    expect(await recordTransfer(ctx.db, transfer({ amountMicros, confirmed: false }), now)).toBe(
      'pending',
    )
    expect(
      await recordTransfer(
        ctx.db,
        transfer({ amountMicros, txHash: 'c'.repeat(64), timestamp: late }),
        now,
      ),
    ).toBe('LATE')
    expect(
      await recordTransfer(
        ctx.db,
        transfer({ amountMicros: amountMicros - 100n, txHash: 'd'.repeat(64) }),
        now,
      ),
    ).toBe('UNMATCHED')
    expect(
      await recordTransfer(
        ctx.db,
        transfer({ amountMicros, exact: false, txHash: 'e'.repeat(64) }),
        now,
      ),
    ).toBe('INEXACT')
    expect(await balanceOf(ctx, user.id)).toBe(0n)
    const unmatched = await runOperator(ctx, 'payments:unmatched', '--json')
    const outcomes = (JSON.parse(unmatched.stdout) as { tx_hash: string; outcome: string }[]).map(
      (t) => `${t.tx_hash[0]}:${t.outcome}`,
    )
    expect(outcomes).toEqual(expect.arrayContaining(['c:LATE', 'd:UNMATCHED', 'e:INEXACT']))
  })

  it('lets one transaction hash credit one request only, by hand or by a watcher', async () => {
    const a = await customer(ctx, { balance: '0' })
    const b = await customer(ctx, { balance: '0' })
    const first = await requested(a.token, '5')
    const second = await requested(b.token, '5')
    const hash = `0x${'f'.repeat(64)}`
    const ok = await runOperator(
      ctx,
      'payments:confirm',
      String(first.payment_id),
      '--tx',
      hash,
      '--json',
    )
    expect(ok.code, ok.stderr).toBe(0)
    expect(JSON.parse(ok.stdout)).toMatchObject({ id: first.payment_id, status: 'PAID' })
    const reused = await runOperator(
      ctx,
      'payments:confirm',
      String(second.payment_id),
      '--tx',
      hash,
    )
    expect(reused.code).toBe(1)
    expect(reused.stderr).toContain('already been used')
    const twice = await runOperator(
      ctx,
      'payments:confirm',
      String(first.payment_id),
      '--tx',
      `0x${'9'.repeat(64)}`,
    )
    expect(twice.code).toBe(1)
    expect(
      (await runOperator(ctx, 'payments:confirm', String(second.payment_id), '--tx', 'nope')).code,
    ).toBe(2)
    expect(await balanceOf(ctx, b.user.id)).toBe(0n)
    expect(await balanceOf(ctx, a.user.id)).toBeGreaterThan(0n)
    const listed = await runOperator(ctx, 'payments:list', '--user', a.user.username, '--json')
    expect(JSON.parse(listed.stdout)).toMatchObject([{ id: first.payment_id, status: 'PAID' }])
  })

  it('a watcher round records what it sees and keeps its cursor', async () => {
    const { token, user } = await customer(ctx, { balance: '0' })
    const payment = await requested(token, '12')
    const amountMicros = BigInt(Math.round(Number(payment.unique_amount) * 1e6))
    const cursors: (string | null)[] = []
    const watcher: ChainWatcher = {
      network: 'trc20',
      address: 'TNTYuKfobXw9Qphr49rwuo7uWjvmmUWkcJ',
      async poll(cursor) {
        cursors.push(cursor)
        return {
          transfers: [transfer({ amountMicros, txHash: '1'.repeat(64) })],
          cursor: `trc20:${cursors.length}`,
          caughtUp: true,
        }
      },
    }
    expect(await watchOnce(ctx.db, watcher, { rate: 89_500, now: () => new Date() })).toBe(1)
    expect(await watchOnce(ctx.db, watcher, { rate: 89_500, now: () => new Date() })).toBe(0)
    expect(cursors).toEqual([null, 'trc20:1'])
    expect(await balanceOf(ctx, user.id)).toBeGreaterThan(0n)
  })

  it('refuses bad amounts, networks and wallets in pounds, in the customer language', async () => {
    const { token } = await customer(ctx)
    for (const [fields, message] of [
      [{ amount: '0', network: 'trc20' }, 'Please enter a valid amount'],
      [{ amount: '-5', network: 'trc20' }, 'Please enter a valid amount'],
      [{ amount: 'ten', network: 'trc20' }, 'Please enter a valid amount'],
      [{ amount: '10', network: 'erc20' }, 'Network is not valid'],
    ] as const) {
      const res = await request(ctx, token, fields)
      expect(res.status, JSON.stringify(fields)).toBe(422)
      expect(((await res.json()) as { message: string }).message).toBe(message)
    }
    const lebanese = await customer(ctx, { currency: 'LBP' })
    const res = await request(ctx, lebanese.token, { amount: '10', network: 'trc20' }, '?local=ar')
    expect(res.status).toBe(422)
    expect(((await res.json()) as { message: string }).message).toBe(
      'الشحن عبر USDT متاح للمحافظ بالدولار الأمريكي فقط.',
    )
  })
})
