import { afterEach, describe, expect, it } from 'vitest'
import type { Bep20Config } from '../../config'
import { createBep20Watcher, type Bep20WatcherOptions } from './bep20'
import {
  CUSTOMER,
  FAKE_USDT,
  FakeBsc,
  hex,
  MICRO,
  STORE,
  STRANGER,
  topic,
  txHash,
  USDT,
} from './fake-bsc'
import { recordingLogger } from './fake-node'
import { ChainError, TRANSFER_TOPIC, USDT_CONTRACT, type ChainTransfer } from './types'

let fake: FakeBsc
afterEach(async () => {
  await fake?.node.close()
})

function watcher(overrides: Partial<Bep20Config> = {}, options: Bep20WatcherOptions = {}) {
  return createBep20Watcher(
    {
      address: STORE.toUpperCase().replace('0X', '0x'),
      rpcUrl: `${fake.node.url}/rpc/secret-key`,
      confirmations: 15,
      logWindow: 2000,
      timeoutMs: 2000,
      ...overrides,
    },
    options,
  )
}

describe('BEP20 watcher', () => {
  it('reports genuine USDT transfers to the store in micro-USDT, and nothing else', async () => {
    fake = await new FakeBsc().start()
    fake.logs = [
      { tx: 1, block: 4900, logIndex: 7, value: 12_345_678n * MICRO },
      // Returned by the node although the filter names the genuine contract.
      { tx: 2, block: 4901, logIndex: 0, value: 12_345_678n * MICRO, contract: FAKE_USDT },
      { tx: 3, block: 4902, logIndex: 1, value: 5n * MICRO, to: STRANGER },
      { tx: 4, block: 4990, logIndex: 3, value: USDT },
    ]
    const { logger, lines } = recordingLogger()
    const w = watcher({}, { logger, initialLookbackBlocks: 200 })
    expect(w.address).toBe(STORE)
    const result = await w.poll(null)

    expect(result.transfers).toEqual<ChainTransfer[]>([
      {
        network: 'bep20',
        txHash: txHash(1).toLowerCase(),
        logIndex: 7,
        from: CUSTOMER,
        to: STORE,
        amountMicros: 12_345_678n,
        exact: true,
        blockNumber: 4900n,
        confirmations: 101,
        confirmed: true,
        timestamp: new Date(fake.timestamp(4900) * 1000),
      },
      {
        network: 'bep20',
        txHash: txHash(4).toLowerCase(),
        logIndex: 3,
        from: CUSTOMER,
        to: STORE,
        amountMicros: 1_000_000n,
        exact: true,
        blockNumber: 4990n,
        confirmations: 11,
        confirmed: false,
        timestamp: new Date(fake.timestamp(4990) * 1000),
      },
    ])
    // At the first block that is not final (5000 - 15 + 2), so 4990 is read again.
    expect(result).toMatchObject({ cursor: 'bep20:4987', caughtUp: true })

    const [getLogs] = fake.calls('eth_getLogs')
    expect(getLogs!.params).toEqual([
      {
        // The first poll looks back initialLookbackBlocks from the head.
        fromBlock: hex(4801),
        toBlock: hex(5000),
        address: USDT_CONTRACT.bep20,
        topics: [TRANSFER_TOPIC, null, topic(STORE)],
      },
    ])
    expect(fake.node.requests.every((r) => r.path === '/rpc/secret-key')).toBe(true)
    // Block times came with the logs: no block was fetched.
    expect(fake.calls('eth_getBlockByNumber')).toEqual([])
    expect(lines.map((l) => [l.level, l.msg])).toEqual([
      ['debug', 'bep20: ignored a log of another contract'],
      ['debug', 'bep20: ignored a log that is not a Transfer to the store'],
    ])
    expect(lines[0]!.fields).toMatchObject({ txHash: txHash(2).toLowerCase(), contract: FAKE_USDT })
  })

  it('cuts 18 decimals to 6 exactly and flags any remainder instead of rounding', async () => {
    fake = await new FakeBsc().start()
    fake.logs = [
      { tx: 1, block: 4000, logIndex: 0, value: 1_000_000n * MICRO + 1n },
      { tx: 2, block: 4001, logIndex: 0, value: MICRO - 1n },
      // 2^128 raw units: far beyond what a float holds exactly.
      { tx: 3, block: 4002, logIndex: 0, value: 2n ** 128n },
      { tx: 4, block: 4003, logIndex: 0, value: 0n },
      { tx: 5, block: 4004, logIndex: 0, value: 99_999_999n * MICRO },
    ]
    const { logger, lines } = recordingLogger()
    const result = await watcher({}, { logger }).poll('bep20:3990')
    expect(result.transfers.map((t) => [t.txHash.slice(-1), t.amountMicros, t.exact])).toEqual([
      ['1', 1_000_000n, false],
      ['2', 0n, false],
      ['3', 2n ** 128n / MICRO, false],
      ['5', 99_999_999n, true],
    ])
    const dust = lines.filter((l) => l.msg === 'bep20: a transfer has dust below 1 micro-USDT')
    expect(dust.map((l) => [l.level, l.fields?.rawAmount])).toEqual([
      ['info', '1000000000000000001'],
      ['info', '999999999999'],
      ['info', (2n ** 128n).toString()],
    ])
    expect(lines.some((l) => l.msg === 'bep20: ignored a zero-amount transfer')).toBe(true)
  })

  it('takes block times from the blocks when logs lack them, and rereads a block that changed', async () => {
    fake = await new FakeBsc().start()
    fake.logTimestamps = false
    fake.logs = [
      { tx: 1, block: 4000, logIndex: 0, value: MICRO },
      { tx: 2, block: 4000, logIndex: 1, value: MICRO },
      { tx: 3, block: 4100, logIndex: 0, value: MICRO },
    ]
    // Block 4100 was replaced between eth_getLogs and eth_getBlockByNumber.
    fake.forked.add(4100)
    const { logger, lines } = recordingLogger()
    const result = await watcher({}, { logger }).poll('bep20:3900')
    expect(result.transfers.map((t) => [t.blockNumber, t.timestamp])).toEqual([
      [4000n, new Date(fake.timestamp(4000) * 1000)],
      [4000n, new Date(fake.timestamp(4000) * 1000)],
    ])
    expect(fake.calls('eth_getBlockByNumber').map((c) => c.params)).toEqual([
      [hex(4000), false],
      [hex(4100), false],
    ])
    expect(lines.at(-1)).toMatchObject({
      level: 'info',
      msg: 'bep20: a block changed while it was read; it is read again next poll',
      fields: { block: 4100 },
    })
    // Although 900 blocks deep, 4100 is read again next poll.
    expect(result.cursor).toBe('bep20:4100')
  })

  it('keeps an unconfirmed transfer in view until it is deep enough; the cursor waits for it', async () => {
    fake = await new FakeBsc().start()
    fake.logs = [{ tx: 7, block: 4995, logIndex: 2, value: 30n * USDT }]
    const w = watcher()

    const first = await w.poll('bep20:4900')
    expect(first.transfers).toMatchObject([{ confirmations: 6, confirmed: false }])
    expect(first.cursor).toBe('bep20:4987')

    fake.head = 5008
    const second = await w.poll(first.cursor)
    expect(second.transfers).toMatchObject([{ confirmations: 14, confirmed: false }])
    expect(second.cursor).toBe('bep20:4995')

    fake.head = 5009
    const third = await w.poll(second.cursor)
    expect(third.transfers).toMatchObject([
      { amountMicros: 30_000_000n, confirmations: 15, confirmed: true },
    ])
    expect(third.cursor).toBe('bep20:4996')
    expect(fake.calls('eth_getLogs').at(-1)!.params[0]).toMatchObject({
      fromBlock: hex(4995),
      toBlock: hex(5009),
    })

    fake.head = 5020
    expect((await w.poll(third.cursor)).transfers).toEqual([])
  })

  it('never confirms a transfer in a block that was reorganised away', async () => {
    fake = await new FakeBsc().start()
    const { logger, lines } = recordingLogger()
    const w = watcher({}, { logger })
    const reports: ChainTransfer[] = []
    const poll = async (cursor: string) => {
      const result = await w.poll(cursor)
      reports.push(...result.transfers)
      return result
    }

    fake.logs = [{ tx: 9, block: 4995, logIndex: 4, value: 45n * USDT }]
    let result = await poll('bep20:4990')
    expect(result.transfers).toMatchObject([{ blockNumber: 4995n, confirmed: false }])

    // The node reports the log retracted, and block 4995 has no such log any more.
    fake.logs = [{ tx: 9, block: 4995, logIndex: 4, value: 45n * USDT, removed: true }]
    fake.head = 5003
    result = await poll(result.cursor)
    expect(result.transfers).toEqual([])
    expect(lines.at(-1)).toMatchObject({
      level: 'info',
      msg: 'bep20: ignored a log removed by a reorganisation',
    })
    expect(result.cursor).toBe('bep20:4990')

    // Then simply absent…
    fake.logs = []
    fake.head = 5010
    result = await poll(result.cursor)
    expect(result.transfers).toEqual([])

    // …and mined again in block 5005, at another log index, where it becomes final.
    fake.logs = [{ tx: 9, block: 5005, logIndex: 0, value: 45n * USDT }]
    for (const head of [5012, 5019]) {
      fake.head = head
      result = await poll(result.cursor)
    }
    expect(reports.filter((t) => t.confirmed)).toMatchObject([
      { blockNumber: 5005n, logIndex: 0, confirmations: 15 },
    ])
    expect(reports.some((t) => t.blockNumber === 4995n && t.confirmed)).toBe(false)
  })

  it('drops a log that the same answer also retracts', async () => {
    fake = await new FakeBsc().start()
    fake.logs = [
      { tx: 9, block: 4000, logIndex: 4, value: MICRO },
      { tx: 9, block: 4000, logIndex: 4, value: MICRO, removed: true },
    ]
    const result = await watcher().poll('bep20:3990')
    expect(result.transfers).toEqual([])
    expect(result.cursor).toBe('bep20:4000')
  })

  it('reports a repeated log once, two transfers in one transaction twice', async () => {
    fake = await new FakeBsc().start()
    fake.repeatLogs = true
    fake.logs = [
      { tx: 1, block: 4000, logIndex: 5, value: MICRO },
      { tx: 1, block: 4000, logIndex: 6, value: 2n * MICRO },
    ]
    const result = await watcher().poll('bep20:3990')
    expect(result.transfers.map((t) => [t.logIndex, t.amountMicros])).toEqual([
      [5, 1n],
      [6, 2n],
    ])
  })

  it('searches in windows of BSC_LOG_WINDOW blocks, and stops at the window budget', async () => {
    fake = await new FakeBsc().start()
    fake.maxRange = 1000
    fake.logs = [
      { tx: 1, block: 1500, logIndex: 0, value: MICRO },
      { tx: 2, block: 3999, logIndex: 0, value: MICRO },
      { tx: 3, block: 4500, logIndex: 0, value: MICRO },
    ]
    const ranges = () =>
      fake
        .calls('eth_getLogs')
        .map((c) => c.params[0] as { fromBlock: string; toBlock: string })
        .map((f) => [Number(f.fromBlock), Number(f.toBlock)])

    const all = await watcher({ logWindow: 1000 }).poll('bep20:1000')
    expect(ranges()).toEqual([
      [1000, 1999],
      [2000, 2999],
      [3000, 3999],
      [4000, 4999],
      [5000, 5000],
    ])
    expect(all.transfers).toHaveLength(3)
    expect(all).toMatchObject({ cursor: 'bep20:4987', caughtUp: true })

    fake.node.requests.length = 0
    const w = watcher({ logWindow: 1000 }, { maxWindows: 3 })
    const first = await w.poll('bep20:1000')
    expect(first).toMatchObject({ cursor: 'bep20:4000', caughtUp: false })
    expect(first.transfers.map((t) => t.blockNumber)).toEqual([1500n, 3999n])
    const second = await w.poll(first.cursor)
    expect(second).toMatchObject({ cursor: 'bep20:4987', caughtUp: true })
    expect(second.transfers.map((t) => t.blockNumber)).toEqual([4500n])

    // A window wider than the node allows is its error, reported as such.
    const error = await watcher({ logWindow: 1001 })
      .poll('bep20:1000')
      .catch((err: unknown) => err)
    expect(error).toMatchObject({ name: 'ChainError', kind: 'rpc', rpcCode: -32005 })
  })

  it('does not move the cursor back when the node is behind it', async () => {
    fake = await new FakeBsc().start()
    fake.head = 4000
    const result = await watcher().poll('bep20:4500')
    expect(result).toEqual({ transfers: [], cursor: 'bep20:4500', caughtUp: true, head: 4000n })
    expect(fake.calls('eth_getLogs')).toEqual([])
  })

  it('turns HTTP errors, RPC errors, bad answers, timeouts and a dead node into ChainError', async () => {
    fake = await new FakeBsc().start()
    const failsWith = async (
      answers: FakeBsc['failures'],
      expected: Partial<ChainError>,
      config: Partial<Bep20Config> = {},
    ) => {
      fake.failures = [...answers]
      const error = await watcher(config)
        .poll('bep20:4990')
        .catch((err: unknown) => err)
      expect(error, JSON.stringify(answers)).toBeInstanceOf(ChainError)
      expect(error).toMatchObject({ network: 'bep20', ...expected })
      // Nothing that could hold a key in the message.
      expect((error as Error).message).not.toContain('secret-key')
      fake.failures = []
    }
    const ok = (result: unknown) => ({ json: { jsonrpc: '2.0', id: 1, result } })

    await failsWith([{ status: 503, text: 'upstream down' }], {
      kind: 'http',
      status: 503,
      message: 'eth_blockNumber: HTTP 503 upstream down',
    })
    await failsWith([{ json: { jsonrpc: '2.0', id: 1, error: { code: -32000, message: 'x' } } }], {
      kind: 'rpc',
      rpcCode: -32000,
    })
    await failsWith([{ text: 'not json' }], { kind: 'invalid-answer' })
    await failsWith([ok('12')], { kind: 'invalid-answer' })
    await failsWith([{ json: { jsonrpc: '2.0', id: 99, result: '0x1' } }], {
      kind: 'invalid-answer',
    })
    await failsWith([{ json: { jsonrpc: '2.0', id: 1 } }], { kind: 'invalid-answer' })
    await failsWith(
      [
        ok(hex(5000)),
        {
          json: {
            jsonrpc: '2.0',
            id: 2,
            result: [
              {
                address: USDT_CONTRACT.bep20,
                topics: [TRANSFER_TOPIC, topic(CUSTOMER), topic(STORE)],
                data: '0x01',
                blockNumber: hex(4995),
                blockHash: fake.hash(4995),
                transactionHash: txHash(1),
                logIndex: '0x0',
                removed: false,
              },
            ],
          },
        },
      ],
      { kind: 'invalid-answer', message: 'eth_getLogs: malformed Transfer log' },
    )
    await failsWith(
      ['hang'],
      { kind: 'timeout', message: 'eth_blockNumber: no answer in time' },
      { timeoutMs: 100 },
    )

    const error = await watcher()
      .poll('trc20:12')
      .catch((err: unknown) => err)
    expect(error).toMatchObject({ name: 'ChainError', kind: 'bad-cursor' })

    await fake.node.close()
    const dead = await watcher()
      .poll(null)
      .catch((err: unknown) => err)
    expect(dead).toMatchObject({ name: 'ChainError', kind: 'unreachable' })
  })
})
