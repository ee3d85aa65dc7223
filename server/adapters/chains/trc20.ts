import * as v from 'valibot'
import type { Trc20Config } from '../../config'
import type { Logger } from '../../log'
import { canonicalTxHash, tronAddress } from './address'
import { decimalString, parseReply, requestJson, safeInteger } from './http'
import {
  ChainError,
  USDT_CONTRACT,
  type ChainTransfer,
  type ChainWatcher,
  type PollResult,
} from './types'

/*
 * USDT on Tron through TronGrid (header TRON-PRO-API-KEY when a key is set):
 *
 * POST {url}/wallet/getnowblock                 the head: block_header.raw_data.{number,timestamp}
 * POST {url}/wallet/getblockbynum {"num": n}    the same shape, for block n
 * GET  {url}/v1/accounts/{store}/transactions/trc20?only_to=true&contract_address=USDT
 *        &order_by=block_timestamp,asc&min_timestamp={ms}&limit=200[&fingerprint=…]
 *      {"data": [{"transaction_id", "token_info": {"address"}, "block_timestamp", "from", "to",
 *                 "type": "Transfer", "value"}], "meta": {"fingerprint"?}}   (fingerprint: more)
 * GET  {url}/v1/transactions/{id}/events
 *      {"data": [{"transaction_id", "block_number", "block_timestamp", "contract_address",
 *                 "event_index", "event_name", "result": {"from", "to", "value"},
 *                 "_unconfirmed"}]}
 *
 * Why two endpoints: the contract's event feed (/v1/contracts/{USDT}/events) cannot be
 * filtered by recipient, so watching it means reading every USDT transfer on Tron. The
 * account's TRC20 feed lists only transfers to the store, but its records carry neither a
 * block number (needed for confirmations) nor an event index (needed to tell apart two
 * transfers in one transaction). So the feed finds the transactions, and each transaction's
 * events give the block, the index and the authoritative contract address and amount.
 *
 * The cursor is the feed's min_timestamp: one millisecond before the first block that is not
 * final, which getblockbynum tells (Tron skips slots, so it cannot be computed from the head).
 * `_unconfirmed` is TronGrid's own mark for blocks above the solidified (irreversible) head,
 * about 19 blocks deep; a transfer is confirmed only when that mark is gone as well.
 */

const txId = v.pipe(v.string(), v.regex(/^(?:0x)?[0-9a-fA-F]{64}$/, 'a transaction id'))

const Block = v.object({
  block_header: v.object({
    raw_data: v.object({ number: safeInteger, timestamp: safeInteger }),
  }),
})

const Page = v.object({
  data: v.array(v.unknown()),
  meta: v.optional(v.object({ fingerprint: v.optional(v.string()) })),
})

const Listed = v.object({
  transaction_id: txId,
  token_info: v.optional(v.object({ address: v.string() })),
  block_timestamp: safeInteger,
  to: v.string(),
  type: v.optional(v.string()),
})

const TxEvent = v.object({
  transaction_id: txId,
  block_number: safeInteger,
  block_timestamp: safeInteger,
  contract_address: v.string(),
  event_index: safeInteger,
  event_name: v.string(),
  result: v.record(v.string(), v.unknown()),
  _unconfirmed: v.optional(v.boolean(), false),
})

const TransferResult = v.object({ from: v.string(), to: v.string(), value: decimalString })

const CURSOR = /^trc20:(\d{1,15})$/

export interface Trc20WatcherOptions {
  logger?: Logger
  fetch?: typeof fetch
  /** How far before the head the first poll (null cursor) starts. Default: one hour. */
  initialLookbackMs?: number
  /** Records per feed page; TronGrid allows at most 200. */
  pageSize?: number
  /** Feed pages per poll; past it the poll returns early with caughtUp false. */
  maxPages?: number
}

export function createTrc20Watcher(
  config: Trc20Config,
  {
    logger,
    fetch: fetchImpl = fetch,
    initialLookbackMs = 60 * 60 * 1000,
    pageSize = 200,
    maxPages = 20,
  }: Trc20WatcherOptions = {},
): ChainWatcher {
  const address = tronAddress(config.address)
  if (!address) throw new TypeError('USDT_TRC20_ADDRESS is not a Tron address')
  const base = config.url.replace(/\/+$/, '')
  const headers: Record<string, string> = config.apiKey ? { 'TRON-PRO-API-KEY': config.apiKey } : {}
  const minConfirmations = config.confirmations

  async function call(what: string, method: 'GET' | 'POST', path: string, body?: unknown) {
    const reply = await requestJson({
      network: 'trc20',
      what,
      url: `${base}${path}`,
      method,
      headers,
      body,
      timeoutMs: config.timeoutMs,
      fetch: fetchImpl,
    })
    // TronGrid's v1 API reports some refusals inside a 200 reply.
    if (typeof reply === 'object' && reply !== null && 'success' in reply && !reply.success) {
      const error = (reply as { error?: unknown }).error
      throw new ChainError('trc20', 'rpc', `${what}: TronGrid refused (${String(error)})`)
    }
    return reply
  }

  async function block(num?: number): Promise<{ number: number; timestamp: number }> {
    const what = num === undefined ? 'getnowblock' : 'getblockbynum'
    const reply = await call(what, 'POST', `/wallet/${what}`, num === undefined ? {} : { num })
    return parseReply('trc20', what, Block, reply).block_header.raw_data
  }

  /** Every record of a paginated v1 list, up to `maxPages` pages. */
  async function list(what: string, path: string, params: Record<string, string>) {
    const records: unknown[] = []
    let fingerprint: string | undefined
    for (let pages = 1; ; pages++) {
      const query = new URLSearchParams(params)
      if (fingerprint) query.set('fingerprint', fingerprint)
      const url = query.size > 0 ? `${path}?${query}` : path
      const page = parseReply('trc20', what, Page, await call(what, 'GET', url))
      records.push(...page.data)
      // Keep the filters unchanged between pages: the fingerprint only means something with them.
      fingerprint = page.meta?.fingerprint || undefined
      if (!fingerprint) return { records, complete: true }
      if (pages >= maxPages) return { records, complete: false }
    }
  }

  function parseCursor(cursor: string): number {
    const m = CURSOR.exec(cursor)
    if (!m)
      throw new ChainError('trc20', 'bad-cursor', `Not a TRC20 cursor: ${cursor.slice(0, 40)}`)
    return Number(m[1])
  }

  return {
    network: 'trc20',
    address,

    async poll(cursor): Promise<PollResult> {
      const head = await block()
      const since =
        cursor === null ? Math.max(0, head.timestamp - initialLookbackMs) : parseCursor(cursor)

      // 1. Which transactions paid the store, by the account's feed.
      const feed = await list('trc20 transfers', `/v1/accounts/${address}/transactions/trc20`, {
        only_to: 'true',
        contract_address: USDT_CONTRACT.trc20,
        order_by: 'block_timestamp,asc',
        min_timestamp: String(since),
        limit: String(pageSize),
      })
      const txIds = new Set<string>()
      let lastListed = since
      for (const record of feed.records) {
        const item = parseReply('trc20', 'trc20 transfers', Listed, record)
        const txHash = canonicalTxHash('trc20', item.transaction_id)!
        lastListed = Math.max(lastListed, item.block_timestamp)
        const token = item.token_info ? tronAddress(item.token_info.address) : USDT_CONTRACT.trc20
        if (token !== USDT_CONTRACT.trc20) {
          logger?.debug('trc20: ignored a transfer of another token', {
            txHash,
            contract: item.token_info?.address,
          })
          continue
        }
        if ((item.type ?? 'Transfer') !== 'Transfer' || tronAddress(item.to) !== address) continue
        txIds.add(txHash)
      }

      // 2. Each transaction's events: block, index, and the contract that really emitted them.
      const found = new Map<string, ChainTransfer>()
      for (const txHash of txIds) {
        const events = await list('transaction events', `/v1/transactions/${txHash}/events`, {})
        if (!events.complete) {
          logger?.warn('trc20: a transaction has more events than the page budget reads', {
            txHash,
          })
        }
        let paid = false
        for (const record of events.records) {
          const e = parseReply('trc20', 'transaction events', TxEvent, record)
          if (canonicalTxHash('trc20', e.transaction_id) !== txHash) continue
          if (tronAddress(e.contract_address) !== USDT_CONTRACT.trc20) {
            if (e.event_name === 'Transfer') {
              logger?.debug('trc20: ignored a Transfer of another contract', {
                txHash,
                contract: e.contract_address,
              })
            }
            continue
          }
          if (e.event_name !== 'Transfer') continue
          const result = parseReply('trc20', 'USDT Transfer event', TransferResult, e.result)
          const to = tronAddress(result.to)
          const from = tronAddress(result.from)
          if (!to || !from) {
            throw new ChainError('trc20', 'invalid-answer', `USDT Transfer event: bad address`)
          }
          if (to !== address) continue
          paid = true
          const amount = BigInt(result.value)
          const key = `${txHash}:${e.event_index}`
          if (amount === 0n) {
            logger?.debug('trc20: ignored a zero-amount transfer', { txHash })
          } else if (e.block_timestamp < since) {
            // Its block was already final at the last poll: reported then, not again.
            logger?.debug('trc20: ignored a transfer before the cursor', { txHash })
          } else if (found.has(key)) {
            logger?.debug('trc20: ignored a repeated event', { txHash, logIndex: e.event_index })
          } else {
            const confirmations = Math.max(0, head.number - e.block_number + 1)
            found.set(key, {
              network: 'trc20',
              txHash,
              logIndex: e.event_index,
              from,
              to,
              amountMicros: amount,
              exact: true,
              blockNumber: BigInt(e.block_number),
              confirmations,
              confirmed: confirmations >= minConfirmations && !e._unconfirmed,
              timestamp: new Date(e.block_timestamp),
            })
          }
        }
        if (!paid) {
          // Dropped by a reorganisation, or the event index lags the feed: looked at again
          // while it is recent, since the cursor stays before every block that is not final.
          logger?.info('trc20: a listed transfer has no USDT Transfer event to the store', {
            txHash,
          })
        }
      }

      // 3. The next cursor: just before the first block that is not final, or before the
      // oldest transfer still waiting for confirmations, whichever comes first.
      const transfers = [...found.values()].sort((a, b) =>
        a.blockNumber < b.blockNumber ? -1 : a.blockNumber > b.blockNumber ? 1 : 0,
      )
      let holdBlock = Math.max(0, head.number - minConfirmations + 2)
      let holdTs = holdBlock > head.number ? head.timestamp + 1 : undefined
      for (const t of transfers) {
        if (!t.confirmed && Number(t.blockNumber) <= holdBlock) {
          holdBlock = Number(t.blockNumber)
          holdTs = t.timestamp.getTime()
        }
      }
      holdTs ??= (await block(holdBlock)).timestamp
      let next = holdTs - 1
      // Records past the page budget are at or after the last one listed.
      if (!feed.complete) next = Math.min(next, lastListed - 1)
      next = Math.max(next, since)

      return {
        transfers,
        cursor: `trc20:${next}`,
        caughtUp: feed.complete,
        head: BigInt(head.number),
      }
    },
  }
}
