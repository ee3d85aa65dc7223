import { afterEach, describe, expect, it } from 'vitest'
import type { Trc20Config } from '../../config'
import { tronAddress } from './address'
import { recordingLogger, startFakeNode, type FakeNode, type FakeRequest } from './fake-node'
import { createTrc20Watcher, type Trc20WatcherOptions } from './trc20'
import { ChainError, USDT_CONTRACT, type ChainTransfer } from './types'

/** The test accounts' 20 bytes; Tron writes them with 0x41 in front. */
const BYTES = { store: '11', customer: '22', fakeUsdt: '33', stranger: '44' } as const
const account = (name: keyof typeof BYTES) => tronAddress(`0x${BYTES[name].repeat(20)}`)!
const STORE = account('store')
const CUSTOMER = account('customer')
const FAKE_USDT = account('fakeUsdt')
const STRANGER = account('stranger')

/** Hex as TronGrid's event results write addresses: 0x and the 20 bytes, without the 41. */
const eventHex = (address: string) => {
  const name = (Object.keys(BYTES) as (keyof typeof BYTES)[]).find((n) => account(n) === address)!
  return `0x${BYTES[name].repeat(20)}`
}
const USDT_EVENT_ADDRESS = USDT_CONTRACT.trc20

interface Transfer {
  tx: string
  block: number
  eventIndex: number
  value: string
  contract?: string
  to?: string
  /** What the account feed says the token is, when it differs from the event's contract. */
  listedAs?: string
}

const tx = (n: number) => n.toString(16).padStart(64, '0')

/**
 * TronGrid as its documentation describes it: blocks every 3 s (with a few skipped slots),
 * the account TRC20 feed with min_timestamp, ascending order and fingerprint pages, and
 * per-transaction events. Like a misbehaving node, it ignores contract_address, so look-alike
 * tokens reach the watcher.
 */
class FakeTronGrid {
  head = 1000
  transfers: Transfer[] = []
  /** Events that exist but the account feed does not list (e.g. a stale index). */
  hiddenFromEvents = new Set<string>()
  /** Transactions the feed lists but whose events are gone (dropped by a reorganisation). */
  feedOnly: Transfer[] = []
  /** Answers to the next requests to a path, before the model's own. */
  failures = new Map<string, { status?: number; json?: unknown; text?: string } | 'hang'>()
  node!: FakeNode
  repeatInFeed = false
  repeatEvents = false

  static readonly T0 = 1_700_000_000_000

  /** Slots 991 to 994 were skipped: block 995 came 15 s after block 990. */
  timestamp(block: number) {
    return FakeTronGrid.T0 + block * 3000 + (block > 990 ? 12_000 : 0)
  }

  async start() {
    this.node = await startFakeNode((req) => this.answer(req))
    return this
  }

  private blockReply(number: number) {
    return {
      blockID: number.toString(16).padStart(64, '0'),
      block_header: {
        raw_data: {
          number,
          txTrieRoot: '0'.repeat(64),
          witness_address: '41' + '55'.repeat(20),
          parentHash: (number - 1).toString(16).padStart(64, '0'),
          version: 31,
          timestamp: this.timestamp(number),
        },
        witness_signature: 'ab'.repeat(65),
      },
    }
  }

  private answer(req: FakeRequest) {
    const failure = this.failures.get(req.path)
    if (failure) {
      this.failures.delete(req.path)
      return failure
    }
    if (req.path === '/wallet/getnowblock') return { json: this.blockReply(this.head) }
    if (req.path === '/wallet/getblockbynum') {
      const num = (req.body as { num: number }).num
      return { json: num <= this.head ? this.blockReply(num) : {} }
    }
    const feed = /^\/v1\/accounts\/(\w+)\/transactions\/trc20$/.exec(req.path)
    if (feed) return { json: this.feed(feed[1]!, req.query) }
    const events = /^\/v1\/transactions\/(\w+)\/events$/.exec(req.path)
    if (events) return { json: this.events(events[1]!) }
    return { status: 404, json: { success: false, error: 'not found' } }
  }

  private feed(account: string, query: URLSearchParams) {
    const min = Number(query.get('min_timestamp') ?? 0)
    const limit = Number(query.get('limit') ?? 20)
    const offset = Number(query.get('fingerprint') ?? 0)
    const rows = [...this.transfers, ...this.feedOnly]
      .filter((t) => t.block <= this.head && this.timestamp(t.block) >= min)
      .filter((t) => query.get('only_to') !== 'true' || (t.to ?? STORE) === account)
      .sort((a, b) => a.block - b.block)
      .map((t) => ({
        transaction_id: t.tx,
        token_info: {
          symbol: 'USDT',
          address: t.listedAs ?? t.contract ?? USDT_CONTRACT.trc20,
          decimals: 6,
          name: 'Tether USD',
        },
        block_timestamp: this.timestamp(t.block),
        from: CUSTOMER,
        to: t.to ?? STORE,
        type: 'Transfer',
        value: t.value,
      }))
    const all = this.repeatInFeed ? rows.flatMap((r) => [r, r]) : rows
    const data = all.slice(offset, offset + limit)
    const more = offset + limit < all.length
    return {
      data,
      success: true,
      meta: {
        at: this.timestamp(this.head),
        page_size: data.length,
        ...(more
          ? {
              fingerprint: String(offset + limit),
              links: { next: `http://elsewhere/?fingerprint=${offset + limit}` },
            }
          : {}),
      },
    }
  }

  private events(id: string) {
    const data = this.transfers
      .filter((t) => t.tx === id && t.block <= this.head && !this.hiddenFromEvents.has(t.tx))
      .map((t) => {
        const from = eventHex(CUSTOMER)
        const to = eventHex(t.to ?? STORE)
        return {
          block_number: t.block,
          block_timestamp: this.timestamp(t.block),
          caller_contract_address: t.contract ?? USDT_EVENT_ADDRESS,
          contract_address: t.contract ?? USDT_EVENT_ADDRESS,
          event_index: t.eventIndex,
          event_name: 'Transfer',
          result: { 0: from, 1: to, 2: t.value, from, to, value: t.value },
          result_type: { from: 'address', to: 'address', value: 'uint256' },
          event: 'Transfer(address indexed from, address indexed to, uint256 value)',
          transaction_id: t.tx,
          // TronGrid's mark for blocks above the solidified head, 19 blocks deep.
          _unconfirmed: this.head - t.block < 19,
        }
      })
    return {
      data: this.repeatEvents ? data.flatMap((e) => [e, e]) : data,
      success: true,
      meta: { at: this.timestamp(this.head), page_size: data.length },
    }
  }

  paths() {
    return this.node.requests.map((r) => r.path)
  }
}

let fake: FakeTronGrid
afterEach(async () => {
  await fake?.node.close()
})

function watcher(
  overrides: Partial<Trc20Config> = {},
  options: Trc20WatcherOptions = {},
): ReturnType<typeof createTrc20Watcher> {
  return createTrc20Watcher(
    {
      address: STORE,
      url: `${fake.node.url}/`,
      apiKey: 'tron-key',
      confirmations: 20,
      timeoutMs: 2000,
      ...overrides,
    },
    options,
  )
}

const cursorAt = (block: number) => `trc20:${fake.timestamp(block) - 1}`

describe('TRC20 watcher', () => {
  it('reports genuine USDT transfers to the store, with their depth, and nothing else', async () => {
    fake = await new FakeTronGrid().start()
    fake.transfers = [
      { tx: tx(1), block: 970, eventIndex: 0, value: '12500000' },
      // A look-alike token, listed as what it is.
      { tx: tx(2), block: 975, eventIndex: 0, value: '12500000', contract: FAKE_USDT },
      // A look-alike listed as USDT: the event shows the contract that really emitted it.
      {
        tx: tx(3),
        block: 980,
        eventIndex: 0,
        value: '7000000',
        contract: FAKE_USDT,
        listedAs: USDT_CONTRACT.trc20,
      },
      // One transaction: a look-alike's event, a genuine transfer to someone else, then ours.
      { tx: tx(4), block: 990, eventIndex: 0, value: '5000000', contract: FAKE_USDT },
      { tx: tx(4), block: 990, eventIndex: 1, value: '5000000', to: STRANGER },
      { tx: tx(4), block: 990, eventIndex: 2, value: '999999999999' },
    ]
    const { logger, lines } = recordingLogger()
    const result = await watcher({}, { logger }).poll(null)

    expect(result.transfers).toEqual<ChainTransfer[]>([
      {
        network: 'trc20',
        txHash: tx(1),
        logIndex: 0,
        from: CUSTOMER,
        to: STORE,
        amountMicros: 12_500_000n,
        exact: true,
        blockNumber: 970n,
        confirmations: 31,
        confirmed: true,
        timestamp: new Date(fake.timestamp(970)),
      },
      {
        network: 'trc20',
        txHash: tx(4),
        logIndex: 2,
        from: CUSTOMER,
        to: STORE,
        amountMicros: 999_999_999_999n,
        exact: true,
        blockNumber: 990n,
        confirmations: 11,
        confirmed: false,
        timestamp: new Date(fake.timestamp(990)),
      },
    ])
    // Held before the first block that is not final (1000 - 20 + 2), so the unconfirmed
    // transfer in block 990 is seen again.
    expect(result).toMatchObject({ cursor: cursorAt(982), caughtUp: true })

    const feed = fake.node.requests.find((r) => r.path.endsWith('/transactions/trc20'))!
    expect(feed.path).toBe(`/v1/accounts/${STORE}/transactions/trc20`)
    expect(Object.fromEntries(feed.query)).toEqual({
      only_to: 'true',
      contract_address: USDT_CONTRACT.trc20,
      order_by: 'block_timestamp,asc',
      // The first poll looks back an hour from the head block's time.
      min_timestamp: String(fake.timestamp(1000) - 3_600_000),
      limit: '200',
    })
    expect(fake.node.requests.every((r) => r.headers['tron-pro-api-key'] === 'tron-key')).toBe(true)
    // The look-alike listed as such costs no events call.
    expect(fake.paths()).not.toContain(`/v1/transactions/${tx(2)}/events`)
    // In the feed: transaction 2, and the look-alike's row of transaction 4. In the events:
    // transaction 3, and the look-alike's event in transaction 4.
    expect(lines.filter((l) => l.level === 'debug').map((l) => l.msg)).toEqual([
      'trc20: ignored a transfer of another token',
      'trc20: ignored a transfer of another token',
      'trc20: ignored a Transfer of another contract',
      'trc20: ignored a Transfer of another contract',
    ])
    expect(lines.find((l) => l.msg.includes('another token'))!.fields).toMatchObject({
      txHash: tx(2),
      contract: FAKE_USDT,
    })
  })

  it('keeps an unconfirmed transfer in view until it is deep enough; the cursor waits for it', async () => {
    fake = await new FakeTronGrid().start()
    fake.transfers = [{ tx: tx(7), block: 995, eventIndex: 0, value: '30000000' }]
    const w = watcher()

    const first = await w.poll(cursorAt(960))
    expect(first.transfers).toMatchObject([{ confirmations: 6, confirmed: false }])
    expect(first.cursor).toBe(cursorAt(982))

    fake.head = 1013
    const second = await w.poll(first.cursor)
    expect(second.transfers).toMatchObject([{ confirmations: 19, confirmed: false }])
    // Blocks up to 994 are final by now, but not the transfer's: the cursor waits at it.
    expect(second.cursor).toBe(cursorAt(995))

    fake.head = 1014
    const third = await w.poll(second.cursor)
    expect(third.transfers).toMatchObject([
      { txHash: tx(7), amountMicros: 30_000_000n, confirmations: 20, confirmed: true },
    ])
    // Now past it: the first block that is not final is 1014 - 20 + 2. Its time comes from
    // the node (slots 991-994 were skipped, so it is not head time minus 3 s per block).
    expect(third.cursor).toBe(cursorAt(996))
    expect(fake.paths()).toContain('/wallet/getblockbynum')
    expect(fake.node.requests.at(-1)!.body).toEqual({ num: 996 })

    fake.head = 1020
    expect((await w.poll(third.cursor)).transfers).toEqual([])
  })

  it('waits for TronGrid to mark a transfer irreversible, even with fewer confirmations set', async () => {
    fake = await new FakeTronGrid().start()
    fake.transfers = [{ tx: tx(8), block: 990, eventIndex: 0, value: '1000000' }]
    const w = watcher({ confirmations: 5 })
    const result = await w.poll(cursorAt(980))
    expect(result.transfers).toMatchObject([{ confirmations: 11, confirmed: false }])
    expect(result.cursor).toBe(cursorAt(990))
    fake.head = 1008
    const marked = await w.poll(result.cursor)
    expect(marked.transfers).toMatchObject([{ confirmations: 19, confirmed: false }])
    expect(marked.cursor).toBe(cursorAt(990))
    fake.head = 1009
    expect((await w.poll(marked.cursor)).transfers).toMatchObject([{ confirmed: true }])
  })

  it('never confirms a transfer in a block that was reorganised away', async () => {
    fake = await new FakeTronGrid().start()
    const payment = { tx: tx(9), eventIndex: 0, value: '45000000' }
    fake.transfers = [{ ...payment, block: 995 }]
    const { logger, lines } = recordingLogger()
    const w = watcher({}, { logger })
    const reports: ChainTransfer[] = []

    let result = await w.poll(cursorAt(990))
    reports.push(...result.transfers)
    expect(result.transfers).toMatchObject([{ blockNumber: 995n, confirmed: false }])

    // Block 995 is replaced: the transaction is gone from the events, though the feed lags.
    fake.transfers = []
    fake.feedOnly = [{ ...payment, block: 995 }]
    fake.head = 1003
    result = await w.poll(result.cursor)
    reports.push(...result.transfers)
    expect(result.transfers).toEqual([])
    expect(lines.at(-1)).toMatchObject({
      level: 'info',
      msg: 'trc20: a listed transfer has no USDT Transfer event to the store',
      fields: { txHash: tx(9) },
    })
    // The cursor is still before block 995: if the transfer comes back there, it is seen.
    expect(Number(result.cursor.split(':')[1])).toBeLessThan(fake.timestamp(995))

    // It comes back in block 1002, and becomes final there.
    fake.feedOnly = []
    fake.transfers = [{ ...payment, block: 1002 }]
    for (const head of [1010, 1021]) {
      fake.head = head
      result = await w.poll(result.cursor)
      reports.push(...result.transfers)
    }
    expect(reports.filter((t) => t.confirmed)).toMatchObject([
      { txHash: tx(9), blockNumber: 1002n, confirmations: 20 },
    ])
    expect(reports.some((t) => t.blockNumber === 995n && t.confirmed)).toBe(false)
  })

  it('reports a repeated transfer once, two transfers in one transaction twice', async () => {
    fake = await new FakeTronGrid().start()
    fake.repeatInFeed = true
    fake.repeatEvents = true
    fake.transfers = [
      { tx: tx(10), block: 950, eventIndex: 0, value: '1000000' },
      { tx: tx(11), block: 951, eventIndex: 0, value: '2000000' },
      { tx: tx(11), block: 951, eventIndex: 3, value: '3000000' },
      // Zero-amount transfers are how address-poisoning spam looks: skipped.
      { tx: tx(12), block: 952, eventIndex: 0, value: '0' },
    ]
    const result = await watcher().poll(cursorAt(940))
    expect(result.transfers.map((t) => [t.txHash, t.logIndex, t.amountMicros])).toEqual([
      [tx(10), 0, 1_000_000n],
      [tx(11), 0, 2_000_000n],
      [tx(11), 3, 3_000_000n],
    ])
    // One events call per transaction, however often the feed lists it.
    expect(fake.paths().filter((p) => p === `/v1/transactions/${tx(11)}/events`)).toHaveLength(1)
  })

  it("follows the feed's fingerprint pages, and stops at the page budget without losing any", async () => {
    fake = await new FakeTronGrid().start()
    fake.transfers = [1, 2, 3, 4, 5].map((n) => ({
      tx: tx(100 + n),
      block: 900 + n,
      eventIndex: 0,
      value: String(n * 1_000_000),
    }))
    const all = await watcher({}, { pageSize: 2 }).poll(cursorAt(900))
    expect(all.transfers.map((t) => t.amountMicros)).toEqual(
      [1n, 2n, 3n, 4n, 5n].map((n) => n * 1_000_000n),
    )
    expect(all.caughtUp).toBe(true)
    const pages = fake.node.requests.filter((r) => r.path.endsWith('/transactions/trc20'))
    expect(pages.map((r) => r.query.get('fingerprint'))).toEqual([null, '2', '4'])
    // The filters stay the same from page to page, and the API key goes with each.
    for (const page of pages) {
      expect(page.query.get('min_timestamp')).toBe(String(fake.timestamp(900) - 1))
      expect(page.headers['tron-pro-api-key']).toBe('tron-key')
    }

    const seen = new Set<string>()
    const budget = watcher({}, { pageSize: 2, maxPages: 2 })
    const first = await budget.poll(cursorAt(900))
    expect(first.caughtUp).toBe(false)
    // Records after the budget are at or after the last one listed (block 904).
    expect(first.cursor).toBe(cursorAt(904))
    const second = await budget.poll(first.cursor)
    expect(second.caughtUp).toBe(true)
    for (const t of [...first.transfers, ...second.transfers]) seen.add(t.txHash)
    expect(seen.size).toBe(5)
  })

  it('turns HTTP errors, refusals, bad answers, timeouts and a dead node into ChainError', async () => {
    fake = await new FakeTronGrid().start()
    const failsWith = async (
      path: string,
      answer: { status?: number; json?: unknown; text?: string } | 'hang',
      expected: Partial<ChainError>,
      config: Partial<Trc20Config> = {},
    ) => {
      fake.failures.set(path, answer)
      const error = await watcher(config)
        .poll(cursorAt(990))
        .catch((err: unknown) => err)
      expect(error, JSON.stringify(answer)).toBeInstanceOf(ChainError)
      expect(error).toMatchObject({ network: 'trc20', ...expected })
      fake.failures.clear()
    }
    const feed = `/v1/accounts/${STORE}/transactions/trc20`
    fake.transfers = [{ tx: tx(20), block: 995, eventIndex: 0, value: '1' }]

    await failsWith(
      '/wallet/getnowblock',
      { status: 500, text: 'oops' },
      {
        kind: 'http',
        status: 500,
      },
    )
    await failsWith(
      feed,
      { status: 429, json: { Error: 'The key exceeds the frequency limit(15)' } },
      { kind: 'http', status: 429, message: expect.stringContaining('frequency limit') },
    )
    // What TronGrid answers to a limit above 200: 400 and no body at all.
    await failsWith(feed, { status: 400 }, { kind: 'http', status: 400 })
    await failsWith(feed, { json: { success: false, error: 'bad address' } }, { kind: 'rpc' })
    await failsWith(feed, { text: '<html>gateway</html>' }, { kind: 'invalid-answer' })
    await failsWith(feed, { json: { data: [{ transaction_id: 'x' }] } }, { kind: 'invalid-answer' })
    await failsWith('/wallet/getnowblock', { json: {} }, { kind: 'invalid-answer' })
    await failsWith(
      `/v1/transactions/${tx(20)}/events`,
      {
        json: {
          data: [
            {
              transaction_id: tx(20),
              block_number: 995,
              block_timestamp: fake.timestamp(995),
              contract_address: USDT_CONTRACT.trc20,
              event_index: 0,
              event_name: 'Transfer',
              result: { from: 'nobody', to: eventHex(STORE), value: '1' },
            },
          ],
        },
      },
      { kind: 'invalid-answer' },
    )
    await failsWith(
      `/v1/transactions/${tx(20)}/events`,
      'hang',
      { kind: 'timeout', message: expect.stringContaining('no answer in time') },
      { timeoutMs: 100 },
    )

    const error = await watcher()
      .poll('bep20:12')
      .catch((err: unknown) => err)
    expect(error).toMatchObject({ name: 'ChainError', kind: 'bad-cursor' })

    await fake.node.close()
    const dead = await watcher()
      .poll(null)
      .catch((err: unknown) => err)
    expect(dead).toMatchObject({ name: 'ChainError', kind: 'unreachable' })
  })
})
