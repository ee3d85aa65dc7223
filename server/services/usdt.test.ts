import { toMicros } from '../../src/domain/money'
import * as v from 'valibot'
import { expect, it } from 'vitest'
import { UsdtPaymentReplySchema } from '../../src/contract/wallet'
import type { ChainTransfer, ChainWatcher } from '../adapters/chains'
import { runOperator } from '../test/cli'
import { describeEachDatabase, testPasswords, type TestContext } from '../test/context'
import { balanceOf, customer, get } from '../test/orders'
import { postForm } from '../test/accounts'
import { createApp } from '../app'
import { createDb } from '../db'
import { auditWallets } from './wallet-audit'
import { recordTransfer, requestUsdt } from './usdt'
import { watchOnce } from './usdt-watcher'

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

  it('gives 500 requests for the same amount, at once, the 500 smallest steps above it', async () => {
    const people = await Promise.all(
      Array.from({ length: 500 }, () => customer(ctx, { balance: '0' })),
    )
    const replies = await Promise.all(people.map((p) => requested(p.token, '10')))
    const amounts = replies.map((r) => Number((toMicros(r.unique_amount) - toMicros('10')) / 100n))
    expect(amounts.sort((a, b) => a - b)).toEqual(Array.from({ length: 500 }, (_, i) => i + 1))
  })

  it('asks for the typed amount plus the smallest free step: 37.0001, then 37.0002', async () => {
    const first = await customer(ctx, { balance: '0' })
    const second = await customer(ctx, { balance: '0' })
    expect((await requested(first.token, '37')).unique_amount).toBe('37.0001')
    expect((await requested(second.token, '37')).unique_amount).toBe('37.0002')
  })

  it('keeps one open request per customer: 200 parallel requests answer the same one', async () => {
    const { token, user } = await customer(ctx, { balance: '0' })
    // On PostgreSQL half go through a second pool, as a second server instance would.
    const other = ctx.dialect === 'postgres' ? createDb(ctx.config) : undefined
    const second = other
      ? createApp({ db: other.db, config: ctx.config, clock: ctx.clock, passwords: testPasswords })
      : ctx.app
    let replies
    try {
      replies = await Promise.all(
        Array.from({ length: 200 }, (_, i) =>
          postForm(
            i % 2 ? second : ctx.app,
            'wallet/request-payment',
            {
              amount: '41',
              network: 'trc20',
            },
            { token },
          ),
        ),
      )
    } finally {
      await other?.destroy()
    }
    expect(replies.map((r) => r.status)).toEqual(replies.map(() => 200))
    const ids = await Promise.all(
      replies.map(async (r) => v.parse(UsdtPaymentReplySchema, await r.json()).payment_id),
    )
    expect(new Set(ids).size).toBe(1)
    const rows = await ctx.db
      .selectFrom('usdt_requests')
      .select(['id', 'status'])
      .where('user_id', '=', user.id)
      .execute()
    expect(rows).toEqual([{ id: ids[0], status: 'OPEN' }])
    const holds = await ctx.db
      .selectFrom('usdt_amount_holds')
      .select('unique_amount')
      .where('request_id', '=', ids[0]!)
      .execute()
    expect(holds).toEqual([{ unique_amount: 41_000_100n }])
    // Once its time is over, the next request replaces it.
    ctx.clock.advance(31 * MINUTE)
    try {
      const next = await requested(token, '41')
      expect(next.payment_id).not.toBe(ids[0])
      const check = await get(ctx.app, `wallet/check-payment/${ids[0]}`, token)
      expect(v.parse(UsdtPaymentReplySchema, await check.json())).toMatchObject({
        expired: true,
        paid: false,
      })
    } finally {
      ctx.clock.advance(-31 * MINUTE)
    }
  })

  it('never matches a transfer made before the request', async () => {
    const { token, user } = await customer(ctx, { balance: '0' })
    const payment = await requested(token, '43')
    const amountMicros = toMicros(payment.unique_amount)
    const older = new Date(ctx.clock.now().getTime() - 180 * MINUTE)
    expect(
      await recordTransfer(
        ctx.db,
        transfer({ amountMicros, txHash: '3'.repeat(64), timestamp: older }),
        { rate: 89_500, now: new Date() },
      ),
    ).toBe('UNMATCHED')
    expect(await balanceOf(ctx, user.id)).toBe(0n)
    // The customer's own transfer, made after the request, still pays it.
    expect(
      await recordTransfer(ctx.db, transfer({ amountMicros, txHash: '4'.repeat(64) }), {
        rate: 89_500,
        now: new Date(),
      }),
    ).toBe('CREDITED')
  })

  it('credits each transfer of one transaction to its own request (a batch payout)', async () => {
    const a = await customer(ctx, { balance: '0' })
    const b = await customer(ctx, { balance: '0' })
    const amounts = await Promise.all(
      [a, b].map(async (c) => {
        const p = await requested(c.token, '47', 'bep20')
        return toMicros(p.unique_amount)
      }),
    )
    const hash = `0x${'5'.repeat(64)}`
    const batch = (logIndex: number, amountMicros: bigint) =>
      transfer({
        network: 'bep20',
        to: '0x66f15a81bfe18c3db3ddd3c85f463223f58823f0',
        txHash: hash,
        logIndex,
        amountMicros,
      })
    const options = { rate: 89_500, now: new Date() }
    const results = await Promise.all([
      recordTransfer(ctx.db, batch(7, amounts[0]!), options),
      recordTransfer(ctx.db, batch(8, amounts[1]!), options),
      recordTransfer(ctx.db, batch(9, 3_000_000n), options),
    ])
    expect(results).toEqual(['CREDITED', 'CREDITED', 'UNMATCHED'])
    expect(await balanceOf(ctx, a.user.id)).toBeGreaterThan(0n)
    expect(await balanceOf(ctx, b.user.id)).toBeGreaterThan(0n)
    const unmatched = await runOperator(ctx, 'payments:unmatched', '--json')
    expect(JSON.parse(unmatched.stdout)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ tx_hash: hash, log_index: 9, outcome: 'UNMATCHED' }),
      ]),
    )
  })

  it('takes a hash with or without 0x, in any case, as one transaction on its network', async () => {
    const options = { rate: 89_500, now: new Date() }
    const pay = async (network: 'trc20' | 'bep20', amount: string) => {
      const c = await customer(ctx, { balance: '0' })
      const p = await requested(c.token, amount, network)
      return {
        ...c,
        id: String(p.payment_id),
        micros: toMicros(p.unique_amount),
      }
    }
    // A TRC20 transfer the watcher credited (no 0x), confirmed again by hand as 0x + upper case.
    const tron = await pay('trc20', '51')
    const other = await pay('trc20', '51')
    const hex = '9f0c'.padEnd(64, 'c')
    expect(
      await recordTransfer(ctx.db, transfer({ amountMicros: tron.micros, txHash: hex }), options),
    ).toBe('CREDITED')
    for (const spelling of [`0x${hex}`, hex.toUpperCase(), `0x${hex.toUpperCase()}`]) {
      const again = await runOperator(ctx, 'payments:confirm', other.id, '--tx', spelling)
      expect(again.code, spelling).toBe(1)
      expect(again.stderr).toContain('already been used')
    }
    // A BEP20 hash confirmed by hand without 0x is kept with it; the 0x spelling is refused.
    const bsc = await pay('bep20', '52')
    const bscOther = await pay('bep20', '52')
    const bscHash = 'ab'.repeat(32)
    expect((await runOperator(ctx, 'payments:confirm', bsc.id, '--tx', bscHash)).code).toBe(0)
    const refused = await runOperator(ctx, 'payments:confirm', bscOther.id, '--tx', `0x${bscHash}`)
    expect(refused.code).toBe(1)
    expect(refused.stderr).toContain('already been used')
    // The same hash on the other network: refused by name.
    const wrong = await runOperator(ctx, 'payments:confirm', other.id, '--tx', `0x${bscHash}`)
    expect(wrong.code).toBe(1)
    expect(wrong.stderr).toContain('This transaction is on BEP20')
    // The watcher then sees the transaction confirmed by hand: it credits nothing more.
    const seen = (logIndex: number, amountMicros: bigint) =>
      transfer({
        network: 'bep20',
        to: '0x66f15a81bfe18c3db3ddd3c85f463223f58823f0',
        txHash: `0x${bscHash}`,
        logIndex,
        amountMicros,
      })
    expect(await recordTransfer(ctx.db, seen(4, bscOther.micros), options)).toBe('EXTRA')
    expect(await recordTransfer(ctx.db, seen(3, bsc.micros), options)).toBe('duplicate')
    expect(await balanceOf(ctx, bscOther.user.id)).toBe(0n)
    expect(await balanceOf(ctx, other.user.id)).toBe(0n)
    const transfers = await ctx.db
      .selectFrom('usdt_transfers')
      .select(['tx_hash', 'log_index', 'outcome'])
      .where('tx_hash', 'in', [hex, `0x${bscHash}`])
      .orderBy('id')
      .execute()
    expect(transfers).toEqual([
      { tx_hash: hex, log_index: 0, outcome: 'CREDITED' },
      { tx_hash: `0x${bscHash}`, log_index: 3, outcome: 'CREDITED' },
      { tx_hash: `0x${bscHash}`, log_index: 4, outcome: 'EXTRA' },
    ])
  })

  it('keeps an expired amount from anyone else until its watch window ends', async () => {
    const hold = async (minutes: number) => {
      const { user } = await customer(ctx)
      const now = new Date(ctx.clock.now().getTime() + minutes * MINUTE)
      const made = await requestUsdt(
        ctx.db,
        user,
        { amount: 20_000_000n, network: 'trc20' },
        { chains: ctx.config.chains, timing, now },
      )
      return made.unique_amount
    }
    expect(await hold(0)).toBe(20_000_100n)
    // Expired, inside the window: 20.0001 is still held, the next step is given.
    expect(await hold(40)).toBe(20_000_200n)
    // After both windows, the smallest step is free again.
    expect(await hold(400)).toBe(20_000_100n)
  })

  it('credits a transfer reported ten times once, net of the tax', async () => {
    const { token, user } = await customer(ctx, { balance: '0' })
    const payment = await requested(token, '100')
    const amountMicros = toMicros(payment.unique_amount)
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
    const amountMicros = toMicros(payment.unique_amount)
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
    const amountMicros = toMicros(payment.unique_amount)
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

  it('leaves every wallet and credited transfer as wallet:audit wants them', async () => {
    expect((await auditWallets(ctx.db)).problems).toEqual([])
  })
})
