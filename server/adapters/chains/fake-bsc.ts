import { startFakeNode, type FakeNode, type FakeRequest } from './fake-node'
import { TRANSFER_TOPIC } from './types'

/*
 * Test helper: a BSC JSON-RPC node on a free local port, for the BEP20 watcher's tests and for
 * servers started with BSC_RPC_URL pointing at it.
 */

export const STORE = '0x' + '1a'.repeat(20)
export const CUSTOMER = '0x' + '2b'.repeat(20)
export const FAKE_USDT = '0x' + '3c'.repeat(20)
export const STRANGER = '0x' + '4d'.repeat(20)
export const topic = (address: string) => '0x' + address.slice(2).padStart(64, '0')
const word = (n: bigint) => '0x' + n.toString(16).padStart(64, '0')
export const hex = (n: number | bigint) => '0x' + n.toString(16)
/** Some nodes write hashes in upper case; the watcher reports lower case. */
export const txHash = (n: number) => '0x' + n.toString(16).padStart(64, 'A')
/** USDT on BSC has 18 decimals: this many raw units are one micro-USDT. */
export const MICRO = 10n ** 12n
export const USDT = 10n ** 18n

interface Log {
  tx: number
  block: number
  logIndex: number
  value: bigint
  contract?: string
  to?: string
  removed?: boolean
}

/**
 * A BSC JSON-RPC node: eth_blockNumber, eth_getLogs over at most `maxRange` blocks (wider
 * ranges get the "limit exceeded" error nodes give), eth_getBlockByNumber. Like a node one
 * should not trust, it answers eth_getLogs with every log in the range, whatever the filter.
 */
export class FakeBsc {
  head = 5000
  logs: Log[] = []
  maxRange = 2000
  /** Newer nodes put blockTimestamp in every log; older ones leave it out. */
  logTimestamps = true
  /** Blocks replaced since the logs were read: their hash is not the logs' any more. */
  forked = new Set<number>()
  repeatLogs = false
  failures: ({ status?: number; json?: unknown; text?: string } | 'hang')[] = []
  /** Awaited before each answer: a test may hold a reply until something else has happened. */
  before?: (req: FakeRequest) => Promise<void>
  node!: FakeNode

  static readonly T0 = 1_750_000_000

  async start() {
    this.node = await startFakeNode(async (req) => {
      await this.before?.(req)
      return this.answer(req)
    })
    return this
  }

  timestamp(block: number) {
    return FakeBsc.T0 + Math.floor((block * 3) / 4)
  }

  hash(block: number, fork = 0) {
    return '0x' + (fork * 1_000_000_000 + block).toString(16).padStart(64, '0')
  }

  calls(method: string) {
    return this.node.requests
      .map((r) => r.body as { method: string; params: unknown[] })
      .filter((b) => b.method === method)
  }

  private answer(req: FakeRequest) {
    const failure = this.failures.shift()
    if (failure) return failure
    const { id, method, params } = req.body as { id: number; method: string; params: unknown[] }
    const reply = (result: unknown) => ({ json: { jsonrpc: '2.0', id, result } })
    if (method === 'eth_blockNumber') return reply(hex(this.head))
    if (method === 'eth_getBlockByNumber') {
      const n = Number(params[0])
      if (n > this.head) return reply(null)
      return reply({
        number: hex(n),
        hash: this.hash(n, this.forked.has(n) ? 1 : 0),
        parentHash: this.hash(n - 1),
        timestamp: hex(this.timestamp(n)),
        transactions: [],
      })
    }
    if (method === 'eth_getLogs') {
      const filter = params[0] as { fromBlock: string; toBlock: string }
      const from = Number(filter.fromBlock)
      const to = Number(filter.toBlock)
      if (to - from + 1 > this.maxRange) {
        return { json: { jsonrpc: '2.0', id, error: { code: -32005, message: 'limit exceeded' } } }
      }
      const logs = this.logs
        .filter((l) => l.block >= from && l.block <= to && l.block <= this.head)
        .map((l) => ({
          address: l.contract ?? '0x55d398326f99059fF775485246999027B3197955',
          topics: [TRANSFER_TOPIC, topic(CUSTOMER), topic(l.to ?? STORE)],
          data: word(l.value),
          blockNumber: hex(l.block),
          blockHash: this.hash(l.block),
          transactionHash: txHash(l.tx),
          transactionIndex: '0x0',
          logIndex: hex(l.logIndex),
          removed: l.removed ?? false,
          ...(this.logTimestamps ? { blockTimestamp: hex(this.timestamp(l.block)) } : {}),
        }))
      return reply(this.repeatLogs ? logs.flatMap((l) => [l, l]) : logs)
    }
    return { json: { jsonrpc: '2.0', id, error: { code: -32601, message: 'method not found' } } }
  }
}
