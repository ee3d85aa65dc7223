import { type Kysely } from 'kysely'
import { microsText } from '../../src/domain/money'
import { type ChainWatcher } from '../adapters/chains'
import type { Database } from '../db/schema'
import { errorFields, type Logger } from '../log'
import { metrics } from '../metrics'

/*
 * USDT top-ups (docs/api.md, USDT). A customer asks to add an amount on a network; the store
 * answers with its address and an exact amount: the amount plus the smallest step (0.0001,
 * then 0.0002, ...) that no other open or recently expired request of that network holds. A
 * transfer of exactly that amount, made after the request and confirmed on chain, pays it;
 * the wallet receives it less the USDT tax. Constraints, not timing, keep each amount held
 * once, each customer to one open request, each transfer (network, canonical hash, log)
 * recorded once and each request paid by one transfer, so several server instances may watch
 * the chains together.
 */

import { recordTransfer } from './usdt'

/*
 * The chain watchers: each polls its network for transfers to the store's address, records
 * them (recordTransfer credits a matching request once) and keeps its cursor.
 */

const cursorKey = (watcher: ChainWatcher) => `usdt.cursor.${watcher.network}.${watcher.address}`

/** One round of a watcher: poll until caught up, record every transfer, keep the cursor. */
export async function watchOnce(
  db: Kysely<Database>,
  watcher: ChainWatcher,
  options: { rate: number; now: () => Date; logger?: Logger },
): Promise<number> {
  let recorded = 0
  for (let rounds = 0; rounds < 20; rounds++) {
    const saved = await db
      .selectFrom('settings')
      .select('value')
      .where('key', '=', cursorKey(watcher))
      .executeTakeFirst()
    const result = await watcher.poll(saved?.value ?? null)
    if (result.head !== undefined)
      metrics.usdtHead.set({ network: watcher.network }, Number(result.head))
    for (const transfer of result.transfers) {
      const outcome = await recordTransfer(db, transfer, { rate: options.rate, now: options.now() })
      if (outcome !== 'pending' && outcome !== 'duplicate') {
        recorded++
        if (outcome !== 'CREDITED')
          options.logger?.warn('usdt transfer not credited', {
            network: transfer.network,
            tx: transfer.txHash,
            outcome,
            amount: microsText(transfer.amountMicros),
          })
      }
    }
    await db
      .insertInto('settings')
      .values({ key: cursorKey(watcher), value: result.cursor })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value: result.cursor }))
      .execute()
    if (result.caughtUp) {
      metrics.usdtLastRound.set({ network: watcher.network }, Date.now() / 1000)
      break
    }
  }
  return recorded
}

/**
 * Polls every watcher on a timer until stopped; a failed round is logged and tried again.
 * Stopping resolves once the rounds under way have finished (each is one transaction per
 * transfer, so there is no half-credited transfer to wait for, only the database's use).
 */
export function startWatching(
  db: Kysely<Database>,
  watchers: ChainWatcher[],
  options: { rate: number; intervalMs: number; now: () => Date; logger: Logger },
): () => Promise<void> {
  let stopped = false
  const timers: ReturnType<typeof setTimeout>[] = []
  const running = new Set<Promise<void>>()
  const track = (p: Promise<void>) => {
    running.add(p)
    void p.finally(() => running.delete(p))
  }
  for (const watcher of watchers) {
    const round = async () => {
      try {
        await watchOnce(db, watcher, options)
      } catch (err) {
        options.logger.warn('usdt watcher round failed', {
          network: watcher.network,
          ...errorFields(err),
        })
      }
      if (!stopped) timers.push(setTimeout(() => track(round()), options.intervalMs).unref())
    }
    track(round())
  }
  return async () => {
    stopped = true
    timers.forEach(clearTimeout)
    await Promise.all(running)
  }
}
