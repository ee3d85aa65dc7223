import type { UsdtNetwork } from '../../../src/contract/wallet'
/** The networks a customer can top up from (the contract's list). */
export type Network = UsdtNetwork

/** The one token that counts on each network: anything else with the same name is ignored. */
export const USDT_CONTRACT = {
  /** Tether USD on Tron; its amounts have 6 decimals, like ours. */
  trc20: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
  /** Binance-Peg BSC-USD on BNB Smart Chain (lower-case); its amounts have 18 decimals. */
  bep20: '0x55d398326f99059ff775485246999027b3197955',
} as const

/** keccak256("Transfer(address,address,uint256)"), the first topic of every ERC-20 Transfer log. */
export const TRANSFER_TOPIC = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef'

/** One USDT transfer to the store's address, as a watcher saw it on one poll. */
export interface ChainTransfer {
  network: Network
  /** Lower-case hex: 0x-prefixed on BSC, without prefix on Tron (as TronGrid writes it). */
  txHash: string
  /**
   * With txHash, what identifies the transfer. Tron: the event's index in its transaction.
   * BSC: the log's index in its block, as eth_getLogs reports it. Only a confirmed transfer's
   * identity is final: a BSC transaction re-mined in another block gets another log index.
   */
  logIndex: number
  /** Normalised address: base58 on Tron, lower-case 0x hex on BSC. */
  from: string
  to: string
  /** Micro-USDT (6 decimals). BEP20 amounts are cut down from 18 decimals: see `exact`. */
  amountMicros: bigint
  /** False when a BEP20 amount had a remainder below 1 micro-USDT (cut off in amountMicros). */
  exact: boolean
  blockNumber: bigint
  /** Blocks on top of the transfer's block, counting its own (1 = in the newest block). */
  confirmations: number
  /** Deep enough to credit: confirmations >= the configured minimum (and, on Tron, solidified). */
  confirmed: boolean
  /** When the block was produced. */
  timestamp: Date
}

export interface PollResult {
  /** Oldest block first; each transfer at most once. */
  transfers: ChainTransfer[]
  /** What to pass to the next poll (persist it once the transfers are recorded). */
  cursor: string
  /** False when this poll stopped at its page/window budget: poll again right away. */
  caughtUp: boolean
  /** The chain's newest block at this poll (for the usdt_watcher_head_block metric). */
  head?: bigint
}

export interface ChainWatcher {
  readonly network: Network
  /** The store's receiving address, normalised. */
  readonly address: string
  /**
   * USDT transfers to `address` from `cursor` on (null: the first poll, which looks back a
   * little from the current block). Unconfirmed transfers come back on every poll until they
   * are confirmed or gone, so the returned cursor never passes a block that is not yet final.
   * Throws a ChainError when the node cannot be reached or answers something unusable.
   */
  poll(cursor: string | null): Promise<PollResult>
}

export type ChainErrorKind =
  /** No answer within CHAIN_TIMEOUT_MS. */
  | 'timeout'
  /** The connection failed (DNS, refused, reset). */
  | 'unreachable'
  /** An HTTP status other than 2xx (429 means rate-limited). */
  | 'http'
  /** A refusal inside the reply: a JSON-RPC error (BSC) or TronGrid's `success: false`. */
  | 'rpc'
  /** A reply that is not the documented shape. */
  | 'invalid-answer'
  /** A cursor this watcher did not write. */
  | 'bad-cursor'

/** Why a poll failed; nothing was reported, so the same cursor can simply be polled again. */
export class ChainError extends Error {
  override name = 'ChainError'
  readonly network: Network
  readonly kind: ChainErrorKind
  /** The HTTP status, for kind 'http'. */
  readonly status: number | undefined
  /** The JSON-RPC error code, for kind 'rpc'. */
  readonly rpcCode: number | undefined

  constructor(
    network: Network,
    kind: ChainErrorKind,
    message: string,
    extra: { status?: number; rpcCode?: number; cause?: unknown } = {},
  ) {
    super(message, extra.cause === undefined ? undefined : { cause: extra.cause })
    this.network = network
    this.kind = kind
    this.status = extra.status
    this.rpcCode = extra.rpcCode
  }
}
