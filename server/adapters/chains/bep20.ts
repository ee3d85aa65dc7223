import * as v from 'valibot'
import type { Bep20Config } from '../../config'
import type { Logger } from '../../log'
import { bscAddress, canonicalTxHash } from './address'
import { hexQuantity, parseReply, requestJson } from './http'
import {
  ChainError,
  TRANSFER_TOPIC,
  USDT_CONTRACT,
  type ChainTransfer,
  type ChainWatcher,
  type PollResult,
} from './types'

/*
 * USDT on BNB Smart Chain through a JSON-RPC endpoint (POST {"jsonrpc": "2.0", "id", "method",
 * "params"}; answer {"result"} or {"error": {"code", "message"}}):
 *
 * eth_blockNumber []                            the head, a hex quantity
 * eth_getLogs [{"fromBlock", "toBlock", "address": USDT,
 *               "topics": [Transfer, null, <store address as a 32-byte topic>]}]
 *   [{"address", "topics": [Transfer, from, to], "data": <value, 32 bytes>, "blockNumber",
 *     "blockHash", "transactionHash", "logIndex", "removed", "blockTimestamp"?}]
 * eth_getBlockByNumber [n, false]               {"hash", "timestamp"}: only for logs without
 *                                               blockTimestamp (added to logs in 2025, so
 *                                               older nodes leave it out)
 *
 * The node filters by contract and recipient, but every log is checked again here: an answer
 * from a misconfigured or malicious endpoint must not turn a look-alike token into a top-up.
 * Ranges are searched in windows of BSC_LOG_WINDOW blocks, as nodes refuse wide ones.
 *
 * The cursor is the first block not yet final: a poll searches from it to the head, reports
 * what is shallower than BSC_CONFIRMATIONS as unconfirmed, and leaves the cursor before it, so
 * the next poll reads those blocks again. A log that a reorganisation dropped is simply absent
 * from that second reading (or, from some nodes, comes back `removed: true`); one that moved
 * comes back in its new block with its new depth.
 */

const hash32 = v.pipe(v.string(), v.regex(/^0x[0-9a-fA-F]{64}$/, 'a 32-byte hash'))

const Log = v.object({
  address: v.string(),
  topics: v.array(v.string()),
  data: v.string(),
  blockNumber: v.nullable(hexQuantity),
  blockHash: v.nullable(hash32),
  transactionHash: v.nullable(hash32),
  logIndex: v.nullable(hexQuantity),
  removed: v.optional(v.boolean(), false),
  blockTimestamp: v.optional(v.nullable(hexQuantity)),
})
type Log = v.InferOutput<typeof Log>

const BlockHeader = v.nullable(v.object({ hash: hash32, timestamp: hexQuantity }))

const RpcReply = v.object({
  id: v.unknown(),
  result: v.optional(v.unknown()),
  error: v.optional(v.object({ code: v.number(), message: v.string() })),
})

const CURSOR = /^bep20:(\d{1,20})$/
const MICRO = 10n ** 12n

const hex = (n: bigint) => `0x${n.toString(16)}`
/** One log in one block: a retraction names the block it retracts the log from. */
const logKey = (log: Log) => `${log.transactionHash}:${log.logIndex}:${log.blockHash}`.toLowerCase()
const min = (a: bigint, b: bigint) => (a < b ? a : b)
const max = (a: bigint, b: bigint) => (a > b ? a : b)

export interface Bep20WatcherOptions {
  logger?: Logger
  fetch?: typeof fetch
  /** How many blocks before the head the first poll (null cursor) starts. Default: 8000. */
  initialLookbackBlocks?: number
  /** eth_getLogs windows per poll; past it the poll returns early with caughtUp false. */
  maxWindows?: number
}

export function createBep20Watcher(
  config: Bep20Config,
  {
    logger,
    fetch: fetchImpl = fetch,
    // About an hour at BSC's sub-second blocks, and within what free nodes keep.
    initialLookbackBlocks = 8000,
    maxWindows = 20,
  }: Bep20WatcherOptions = {},
): ChainWatcher {
  const address = bscAddress(config.address)
  if (!address) throw new TypeError('USDT_BEP20_ADDRESS is not a BSC address')
  const toTopic = `0x${address.slice(2).padStart(64, '0')}`
  const window = BigInt(config.logWindow)
  const minConfirmations = config.confirmations
  let nextId = 1

  async function rpc(method: string, params: unknown[]): Promise<unknown> {
    const id = nextId++
    const reply = parseReply(
      'bep20',
      method,
      RpcReply,
      await requestJson({
        network: 'bep20',
        what: method,
        url: config.rpcUrl,
        method: 'POST',
        body: { jsonrpc: '2.0', id, method, params },
        timeoutMs: config.timeoutMs,
        fetch: fetchImpl,
      }),
    )
    if (reply.error) {
      throw new ChainError('bep20', 'rpc', `${method}: ${reply.error.message}`, {
        rpcCode: reply.error.code,
      })
    }
    if (reply.id !== id || reply.result === undefined) {
      throw new ChainError('bep20', 'invalid-answer', `${method}: not an answer to this request`)
    }
    return reply.result
  }

  function parseCursor(cursor: string): bigint {
    const m = CURSOR.exec(cursor)
    if (!m)
      throw new ChainError('bep20', 'bad-cursor', `Not a BEP20 cursor: ${cursor.slice(0, 40)}`)
    return BigInt(m[1]!)
  }

  return {
    network: 'bep20',
    address,

    async poll(cursor): Promise<PollResult> {
      const head = BigInt(
        parseReply('bep20', 'eth_blockNumber', hexQuantity, await rpc('eth_blockNumber', [])),
      )
      const from =
        cursor === null ? max(0n, head - BigInt(initialLookbackBlocks) + 1n) : parseCursor(cursor)

      // 1. The logs, window by window.
      const seen: { log: Log; start: bigint; end: bigint }[] = []
      let scannedTo = from - 1n
      for (let windows = 0; scannedTo < head && windows < maxWindows; windows++) {
        const start = scannedTo + 1n
        const end = min(start + window - 1n, head)
        const filter = {
          fromBlock: hex(start),
          toBlock: hex(end),
          address: USDT_CONTRACT.bep20,
          topics: [TRANSFER_TOPIC, null, toTopic],
        }
        const logs = parseReply(
          'bep20',
          'eth_getLogs',
          v.array(Log),
          await rpc('eth_getLogs', [filter]),
        )
        for (const log of logs) seen.push({ log, start, end })
        scannedTo = end
      }

      // 2. Keep the genuine, current transfers to the store, once each.
      // Blocks from `hold` on are read again next poll, whatever their depth.
      let hold = head - BigInt(minConfirmations) + 2n
      const retracted = new Set(seen.filter(({ log }) => log.removed).map(({ log }) => logKey(log)))
      const kept = new Map<string, { log: Log; block: bigint; txHash: string; value: bigint }>()
      for (const { log, start, end } of seen) {
        if (!log.blockNumber || !log.blockHash || !log.transactionHash || !log.logIndex) continue
        const block = BigInt(log.blockNumber)
        const txHash = canonicalTxHash('bep20', log.transactionHash)!
        const fields = { txHash, logIndex: Number(log.logIndex), block: Number(block) }
        if (log.address.toLowerCase() !== USDT_CONTRACT.bep20) {
          logger?.debug('bep20: ignored a log of another contract', {
            ...fields,
            contract: log.address,
          })
          continue
        }
        const [topic0, fromTopic, recipient] = log.topics.map((t) => t.toLowerCase())
        if (topic0 !== TRANSFER_TOPIC || log.topics.length !== 3 || recipient !== toTopic) {
          logger?.debug('bep20: ignored a log that is not a Transfer to the store', fields)
          continue
        }
        if (log.removed || retracted.has(logKey(log))) {
          logger?.info('bep20: ignored a log removed by a reorganisation', fields)
          hold = min(hold, block)
          continue
        }
        if (block < start || block > end) {
          logger?.debug('bep20: ignored a log outside the requested blocks', fields)
          continue
        }
        if (!/^0x[0-9a-fA-F]{64}$/.test(log.data) || !/^0x[0-9a-fA-F]{64}$/.test(fromTopic!)) {
          throw new ChainError('bep20', 'invalid-answer', 'eth_getLogs: malformed Transfer log')
        }
        const value = BigInt(log.data)
        const key = `${txHash}:${fields.logIndex}`
        if (value === 0n) {
          logger?.debug('bep20: ignored a zero-amount transfer', fields)
        } else if (kept.has(key)) {
          logger?.debug('bep20: ignored a repeated log', fields)
        } else {
          kept.set(key, { log, block, txHash, value })
        }
      }

      // 3. Block times: from the log when the node includes them, else from the block, whose
      // hash must still be the log's (otherwise the block was replaced while we read).
      const times = new Map<bigint, Date | null>()
      for (const { log, block } of kept.values()) {
        if (times.has(block) || log.blockTimestamp) continue
        const header = parseReply(
          'bep20',
          'eth_getBlockByNumber',
          BlockHeader,
          await rpc('eth_getBlockByNumber', [hex(block), false]),
        )
        times.set(
          block,
          header && header.hash.toLowerCase() === log.blockHash!.toLowerCase()
            ? new Date(Number(BigInt(header.timestamp)) * 1000)
            : null,
        )
      }

      const transfers: ChainTransfer[] = []
      for (const { log, block, txHash, value } of kept.values()) {
        const logIndex = Number(log.logIndex)
        const timestamp = log.blockTimestamp
          ? new Date(Number(BigInt(log.blockTimestamp)) * 1000)
          : times.get(block)
        if (!timestamp) {
          logger?.info('bep20: a block changed while it was read; it is read again next poll', {
            txHash,
            logIndex,
            block: Number(block),
          })
          hold = min(hold, block)
          continue
        }
        const exact = value % MICRO === 0n
        if (!exact) {
          logger?.info('bep20: a transfer has dust below 1 micro-USDT', {
            txHash,
            logIndex,
            rawAmount: value.toString(),
          })
        }
        const confirmations = Number(max(0n, head - block + 1n))
        const confirmed = confirmations >= minConfirmations
        if (!confirmed) hold = min(hold, block)
        transfers.push({
          network: 'bep20',
          txHash,
          logIndex,
          from: `0x${log.topics[1]!.slice(-40).toLowerCase()}`,
          to: address,
          amountMicros: value / MICRO,
          exact,
          blockNumber: block,
          confirmations,
          confirmed,
          timestamp,
        })
      }
      transfers.sort((a, b) =>
        a.blockNumber !== b.blockNumber
          ? a.blockNumber < b.blockNumber
            ? -1
            : 1
          : a.logIndex - b.logIndex,
      )

      // 4. Never past a block that is not final, nor past what was searched; never backwards.
      const next = max(from, min(hold, scannedTo + 1n))
      return { transfers, cursor: `bep20:${next}`, caughtUp: scannedTo >= head, head }
    },
  }
}
