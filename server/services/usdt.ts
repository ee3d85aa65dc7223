import { randomInt } from 'node:crypto'
import type { Kysely } from 'kysely'
import type * as v from 'valibot'
import type { UsdtNetwork, UsdtPaymentSchema } from '../../src/contract/wallet'
import { fromMicros, microsText, netOfTax } from '../../src/domain/money'
import { USDT_CONTRACT, type ChainTransfer, type ChainWatcher } from '../adapters/chains'
import type { Config } from '../config'
import type { Database, UserRow } from '../db/schema'
import type { UsdtRequestRow } from '../db/schema-wallet'
import { inTransaction } from '../db/transaction'
import { ApiError } from '../core/errors'
import { errorFields, type Logger } from '../log'
import { creditCharge, paymentInfoWire, paymentSettings, type PaymentSettings } from './charging'
import { isUniqueViolation } from './users'

/*
 * USDT top-ups (docs/api.md, USDT). A customer asks to add an amount on a network; the store
 * answers with its address and an exact amount: the amount plus a fraction (0.0001 to 0.9999)
 * that no other open or recently expired request of that network holds. A transfer of exactly
 * that amount, confirmed on chain, pays the request; the wallet receives it less the USDT tax.
 * Constraints, not timing, keep each amount held once, each transfer recorded once and each
 * request paid once, so several server instances may watch the chains together.
 */

export type UsdtPaymentWire = v.InferInput<typeof UsdtPaymentSchema>

export interface UsdtTiming {
  /** How long the customer has to pay. */
  requestMs: number
  /** After expiry, how long a transfer of the amount is still told apart (as late). */
  graceMs: number
}

/** Fractions come in steps of 0.0001 USDT: 9,999 exact amounts per requested amount. */
const STEP = 100n
const SLOTS = 9_999
const TRIES = 40

/** The store's address on each network, as the charging page shows it (payments/info). */
export function usdtAddresses(
  chains: Config['chains'],
  settings: PaymentSettings,
): Partial<Record<UsdtNetwork, string>> {
  const info = paymentInfoWire(settings, chains)
  return {
    ...(info.usdt_trc20 ? { trc20: info.usdt_trc20 } : {}),
    ...(info.usdt_bep20 ? { bep20: info.usdt_bep20 } : {}),
  }
}

/**
 * What a wallet app reads from the QR code: on BNB Smart Chain an EIP-681 transfer of the
 * token with the exact amount; on Tron, where wallets agree on no such URI, the address.
 */
export function paymentUri(network: UsdtNetwork, address: string, amount: bigint): string {
  if (network === 'trc20') return address
  const units = amount * 1_000_000_000_000n // 18 decimals
  return `ethereum:${USDT_CONTRACT.bep20}@56/transfer?address=${address}&uint256=${units}`
}

export function usdtWire(request: UsdtRequestRow, now: Date): UsdtPaymentWire {
  return {
    payment_id: request.id,
    network: request.network,
    wallet_address: request.address,
    unique_amount: microsText(request.unique_amount),
    qr_code_url: paymentUri(request.network, request.address, request.unique_amount),
    credited_amount: fromMicros(netOfTax(request.unique_amount, fromMicros(request.tax))),
    expires_at: request.expires_at,
    paid: request.status === 'PAID',
    expired: request.status === 'OPEN' && request.expires_at <= now.toISOString(),
  }
}

/** The customer's request still waiting for its transfer, if any. */
export function openRequest(db: Kysely<Database>, userId: number, now: Date) {
  return db
    .selectFrom('usdt_requests')
    .selectAll()
    .where('user_id', '=', userId)
    .where('status', '=', 'OPEN')
    .where('expires_at', '>', now.toISOString())
    .orderBy('id', 'desc')
    .executeTakeFirst()
}

export function findRequest(db: Kysely<Database>, userId: number | undefined, id: number) {
  let query = db.selectFrom('usdt_requests').selectAll().where('id', '=', id)
  if (userId !== undefined) query = query.where('user_id', '=', userId)
  return query.executeTakeFirst()
}

/**
 * A new request for `amount` micro-USDT on `network`, or the customer's open one (one payment
 * at a time: a second would leave them two exact amounts to tell apart).
 */
export async function requestUsdt(
  db: Kysely<Database>,
  user: UserRow,
  { amount, network }: { amount: bigint; network: UsdtNetwork },
  {
    chains,
    timing,
    now,
    fraction = () => randomInt(1, SLOTS + 1),
  }: {
    chains: Config['chains']
    timing: UsdtTiming
    now: Date
    /** Picks a fraction slot from 1 to 9,999 (tests choose theirs). */
    fraction?: () => number
  },
): Promise<UsdtRequestRow> {
  if (user.currency !== 'USD') throw new ApiError(422, 'usdt.usd_only')
  const settings = await paymentSettings(db)
  const address = usdtAddresses(chains, settings)[network]
  if (!address) throw new ApiError(422, 'usdt.network_unavailable')
  const open = await openRequest(db, user.id, now)
  if (open) return open

  const at = now.toISOString()
  const expiresAt = new Date(now.getTime() + timing.requestMs).toISOString()
  const watchUntil = new Date(now.getTime() + timing.requestMs + timing.graceMs).toISOString()
  return inTransaction(db, async (trx) => {
    // Amounts whose watch window is over may be handed out again.
    await trx.deleteFrom('usdt_amount_holds').where('watch_until', '<', at).execute()
    const request = await trx
      .insertInto('usdt_requests')
      .values({
        user_id: user.id,
        network,
        address,
        amount,
        unique_amount: amount,
        tax: settings.usdt_tax,
        status: 'OPEN',
        expires_at: expiresAt,
        watch_until: watchUntil,
        tx_hash: null,
        charging_process_id: null,
        paid_at: null,
        created_at: at,
      })
      .returningAll()
      .executeTakeFirstOrThrow()
    for (let i = 0; i < TRIES; i++) {
      const unique = amount + BigInt(fraction()) * STEP
      const held = await trx
        .insertInto('usdt_amount_holds')
        .values({ network, unique_amount: unique, request_id: request.id, watch_until: watchUntil })
        .onConflict((oc) => oc.columns(['network', 'unique_amount']).doNothing())
        .executeTakeFirst()
      if (Number(held.numInsertedOrUpdatedRows ?? 0) === 1)
        return trx
          .updateTable('usdt_requests')
          .set({ unique_amount: unique })
          .where('id', '=', request.id)
          .returningAll()
          .executeTakeFirstOrThrow()
    }
    throw new ApiError(503, 'usdt.busy')
  })
}

/** Pays an open request, once: its top-up, the credit, its history line, its notification. */
async function payRequest(
  trx: Kysely<Database>,
  request: UsdtRequestRow,
  txHash: string,
  { rate, now }: { rate: number; now: Date },
): Promise<boolean> {
  const at = now.toISOString()
  const paid = await trx
    .updateTable('usdt_requests')
    .set({ status: 'PAID', tx_hash: txHash, paid_at: at })
    .where('id', '=', request.id)
    .where('status', '=', 'OPEN')
    .where('tx_hash', 'is', null)
    .executeTakeFirst()
  if (Number(paid.numUpdatedRows) === 0) return false
  const charge = await trx
    .insertInto('charging_processes')
    .values({
      user_id: request.user_id,
      name: 'USDT',
      value: request.unique_amount,
      tax: request.tax,
      shipping_value: netOfTax(request.unique_amount, fromMicros(request.tax)),
      currency: 'USD',
      status: 'COMPLETED',
      reject_reason: null,
      receipt_file: null,
      promo_code_id: null,
      created_at: at,
      updated_at: at,
      decided_at: at,
    })
    .returningAll()
    .executeTakeFirstOrThrow()
  await trx
    .updateTable('usdt_requests')
    .set({ charging_process_id: charge.id })
    .where('id', '=', request.id)
    .execute()
  await creditCharge(trx, charge, { rate, now })
  return true
}

export type TransferResult =
  'pending' | 'duplicate' | 'CREDITED' | 'LATE' | 'EXTRA' | 'UNMATCHED' | 'INEXACT'

/**
 * Records a transfer a watcher saw and credits the request it pays. Unconfirmed transfers are
 * left for a later poll. Each transfer (network, transaction, log) is recorded once; a
 * transfer of exactly an open request's amount, made before it expired, pays it; anything
 * else (late, extra, short, stray, dust) is recorded for the operator and credits nothing.
 */
export async function recordTransfer(
  db: Kysely<Database>,
  transfer: ChainTransfer,
  options: { rate: number; now: Date },
): Promise<TransferResult> {
  if (!transfer.confirmed) return 'pending'
  try {
    return await inTransaction(db, async (trx) => {
      const request = transfer.exact
        ? await trx
            .selectFrom('usdt_requests')
            .selectAll()
            .where('network', '=', transfer.network)
            .where('address', '=', transfer.to)
            .where('unique_amount', '=', transfer.amountMicros)
            .where('watch_until', '>=', transfer.timestamp.toISOString())
            .orderBy('id', 'desc')
            .executeTakeFirst()
        : undefined
      let outcome: Exclude<TransferResult, 'pending' | 'duplicate'> = !transfer.exact
        ? 'INEXACT'
        : !request
          ? 'UNMATCHED'
          : request.status === 'PAID'
            ? 'EXTRA'
            : transfer.timestamp.toISOString() > request.expires_at
              ? 'LATE'
              : 'CREDITED'
      const recorded = await trx
        .insertInto('usdt_transfers')
        .values({
          network: transfer.network,
          tx_hash: transfer.txHash,
          log_index: transfer.logIndex,
          from_address: transfer.from,
          to_address: transfer.to,
          amount: transfer.amountMicros,
          exact: transfer.exact ? 1 : 0,
          block_number: transfer.blockNumber,
          block_time: transfer.timestamp.toISOString(),
          outcome,
          request_id: request?.id ?? null,
          created_at: options.now.toISOString(),
        })
        .onConflict((oc) => oc.columns(['network', 'tx_hash', 'log_index']).doNothing())
        .returning('id')
        .executeTakeFirst()
      if (!recorded) return 'duplicate'
      if (outcome === 'CREDITED' && !(await payRequest(trx, request!, transfer.txHash, options))) {
        outcome = 'EXTRA'
        await trx
          .updateTable('usdt_transfers')
          .set({ outcome })
          .where('id', '=', recorded.id)
          .execute()
      }
      return outcome
    })
  } catch (err) {
    // Another instance recorded the same transfer (or paid by the same transaction) first.
    if (isUniqueViolation(err)) return 'duplicate'
    throw err
  }
}

/**
 * The operator's confirmation of a transfer seen by other means (no watcher configured, or a
 * late payment the operator accepts): credits an unpaid request once. A transaction hash
 * already used by any request, or recorded as any transfer, is refused.
 */
export async function confirmByHand(
  db: Kysely<Database>,
  id: number,
  txHash: string,
  options: { rate: number; now: Date },
): Promise<UsdtRequestRow> {
  const hash = txHash.trim().toLowerCase()
  try {
    return await inTransaction(db, async (trx) => {
      const request = await findRequest(trx, undefined, id)
      if (!request) throw new ApiError(404, 'usdt.not_found')
      const used = await trx
        .selectFrom('usdt_transfers')
        .select('id')
        .where('tx_hash', '=', hash)
        .where('outcome', '=', 'CREDITED')
        .executeTakeFirst()
      if (used) throw new ApiError(409, 'usdt.hash_used')
      if (!(await payRequest(trx, request, hash, options)))
        throw new ApiError(409, 'usdt.already_paid')
      await trx
        .insertInto('usdt_transfers')
        .values({
          network: request.network,
          tx_hash: hash,
          log_index: -1, // confirmed by hand: no log read
          from_address: 'operator',
          to_address: request.address,
          amount: request.unique_amount,
          exact: 1,
          block_number: 0n,
          block_time: options.now.toISOString(),
          outcome: 'CREDITED',
          request_id: request.id,
          created_at: options.now.toISOString(),
        })
        .execute()
      return { ...request, status: 'PAID' as const, tx_hash: hash }
    })
  } catch (err) {
    if (isUniqueViolation(err)) throw new ApiError(409, 'usdt.hash_used', undefined, { cause: err })
    throw err
  }
}

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
    if (result.caughtUp) break
  }
  return recorded
}

/** Polls every watcher on a timer until stopped; a failed round is logged and tried again. */
export function startWatching(
  db: Kysely<Database>,
  watchers: ChainWatcher[],
  options: { rate: number; intervalMs: number; now: () => Date; logger: Logger },
): () => void {
  let stopped = false
  const timers: ReturnType<typeof setTimeout>[] = []
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
      if (!stopped) timers.push(setTimeout(() => void round(), options.intervalMs).unref())
    }
    void round()
  }
  return () => {
    stopped = true
    timers.forEach(clearTimeout)
  }
}
