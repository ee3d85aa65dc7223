import type { ChainsConfig } from '../../config'
import type { Logger } from '../../log'
import { createBep20Watcher } from './bep20'
import { createTrc20Watcher } from './trc20'
import type { ChainWatcher } from './types'

/**
 * USDT top-up watchers: one per configured network, each answering "which genuine USDT
 * transfers to the store's address are there since this cursor, and how deep are they".
 * Matching a transfer to a payment request (by its exact amount) is the caller's job.
 *
 * - TRC20 (trc20.ts): TronGrid's account TRC20 feed, then each transaction's events.
 * - BEP20 (bep20.ts): eth_getLogs on a BSC JSON-RPC endpoint, in bounded block windows.
 *
 * What the caller can rely on:
 * - Only the genuine USDT contract counts (USDT_CONTRACT); look-alike tokens are skipped and
 *   logged at debug level, even when the node returns them.
 * - Amounts are integer micro-USDT (bigint). BEP20's 18 decimals are cut to 6; a remainder is
 *   reported as `exact: false` (and logged) so the operator sees it: it can never match.
 *   Zero-amount transfers (a common address-poisoning trick) are skipped.
 * - (network, txHash, logIndex) identifies a transfer. Within one poll each comes out once.
 *   Across polls an unconfirmed transfer comes back until it is confirmed (or gone, after a
 *   reorganisation); a confirmed one may rarely come back too, so store it under a unique key.
 * - Credit only `confirmed` transfers. The returned cursor never passes a block that is not
 *   final, so every unconfirmed transfer is looked at again; persist it after recording the
 *   transfers, per network and address, and poll again at once while `caughtUp` is false.
 * - A failure throws a ChainError (kind: timeout, unreachable, http, rpc, invalid-answer,
 *   bad-cursor) and reports nothing; polling again with the same cursor is always safe.
 */
export function createChainWatchers(
  config: ChainsConfig,
  deps: { logger?: Logger; fetch?: typeof fetch } = {},
): ChainWatcher[] {
  const watchers: ChainWatcher[] = []
  if (config.trc20) watchers.push(createTrc20Watcher(config.trc20, deps))
  if (config.bep20) watchers.push(createBep20Watcher(config.bep20, deps))
  return watchers
}

export { bscAddress, canonicalTxHash, isTronAddress, tronAddress } from './address'
export { createBep20Watcher, type Bep20WatcherOptions } from './bep20'
export { createTrc20Watcher, type Trc20WatcherOptions } from './trc20'
export {
  ChainError,
  USDT_CONTRACT,
  type ChainErrorKind,
  type ChainTransfer,
  type ChainWatcher,
  type Network,
  type PollResult,
} from './types'
