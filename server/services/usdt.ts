import { sql, type Kysely } from 'kysely'
import type * as v from 'valibot'
import type { UsdtNetwork, UsdtPaymentSchema } from '../../src/contract/wallet'
import { fromMicros, microsText, netOfTax } from '../../src/domain/money'
import { canonicalTxHash, USDT_CONTRACT, type ChainTransfer } from '../adapters/chains'
import type { Config } from '../config'
import type { Database, UserRow } from '../db/schema'
import type { UsdtRequestRow } from '../db/schema-wallet'
import { inTransaction } from '../db/transaction'
import { ApiError } from '../core/errors'
import { creditCharge, insertPaidCharge } from './charging'
import { paymentInfoWire, paymentSettings, type PaymentSettings } from './settings'
import { recordAudit } from './audit'
import { alertOperators } from './operator-alerts'
import { lockKey } from './codes'

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
/** Looks for a free amount again at most this often when another amount's request took it. */
const TRIES = 10

/** The store's address on each network, as the charging page shows it (payments/info). */
export function usdtAddresses(
  chains: Config['chains'],
  settings: PaymentSettings,
): Partial<Record<UsdtNetwork, string>> {
  const info = paymentInfoWire(settings, chains, 'en')
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
    expired:
      request.status === 'EXPIRED' ||
      (request.status === 'OPEN' && request.expires_at <= now.toISOString()),
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
 * at a time: a second would leave them two exact amounts to tell apart). The database holds
 * the rule (a partial unique index on the open requests): of parallel calls one opens the
 * request and the others answer it.
 */
export async function requestUsdt(
  db: Kysely<Database>,
  user: UserRow,
  { amount, network }: { amount: bigint; network: UsdtNetwork },
  { chains, timing, now }: { chains: Config['chains']; timing: UsdtTiming; now: Date },
): Promise<UsdtRequestRow> {
  if (user.currency !== 'USD') throw new ApiError(422, 'usdt.usd_only')
  const settings = await paymentSettings(db)
  const address = usdtAddresses(chains, settings)[network]
  if (!address) throw new ApiError(422, 'usdt.network_unavailable')

  const at = now.toISOString()
  const expiresAt = new Date(now.getTime() + timing.requestMs).toISOString()
  const watchUntil = new Date(now.getTime() + timing.requestMs + timing.graceMs).toISOString()
  for (let tries = 0; tries < 3; tries++) {
    const open = await openRequest(db, user.id, now)
    if (open) return open
    const made = await inTransaction(db, async (trx) => {
      // Amounts whose watch window is over may be handed out again.
      await trx.deleteFrom('usdt_amount_holds').where('watch_until', '<', at).execute()
      // A request whose time is over gives way to the new one (its amount stays held, and a
      // transfer made in time still pays it).
      await trx
        .updateTable('usdt_requests')
        .set({ status: 'EXPIRED' })
        .where('user_id', '=', user.id)
        .where('status', '=', 'OPEN')
        .where('expires_at', '<=', at)
        .execute()
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
        // The customer's open request (usdt_requests_one_open): another call made it first.
        .onConflict((oc) =>
          oc
            .column('user_id')
            .where(sql<boolean>`status = 'OPEN'`)
            .doNothing(),
        )
        .returningAll()
        .executeTakeFirst()
      if (!request) return undefined
      // Requests for one amount take turns (on PostgreSQL; SQLite's writes do anyway), so each
      // finds the steps the one before took: otherwise all would chase the same smallest one.
      await lockKey(trx, `usdt:amount:${network}:${amount}`, at)
      for (let i = 0; i < TRIES; i++) {
        const unique = await smallestFreeAmount(trx, network, amount)
        if (unique === undefined) break
        const held = await trx
          .insertInto('usdt_amount_holds')
          .values({
            network,
            unique_amount: unique,
            request_id: request.id,
            watch_until: watchUntil,
          })
          .onConflict((oc) => oc.columns(['network', 'unique_amount']).doNothing())
          .executeTakeFirst()
        // Taken by a concurrent request (PostgreSQL) since we looked: look again.
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
    if (made) return made
  }
  throw new ApiError(503, 'usdt.busy')
}

/**
 * The smallest amount above `amount`, in steps of 0.0001, that no request of the network
 * holds: 10 asks for 10.0001, then 10.0002, so a customer never sends much more than typed.
 */
async function smallestFreeAmount(
  trx: Kysely<Database>,
  network: UsdtNetwork,
  amount: bigint,
): Promise<bigint | undefined> {
  const held = await trx
    .selectFrom('usdt_amount_holds')
    .select('unique_amount')
    .where('network', '=', network)
    .where('unique_amount', '>', amount)
    .where('unique_amount', '<=', amount + BigInt(SLOTS) * STEP)
    .orderBy('unique_amount')
    .execute()
  let next = amount + STEP
  for (const { unique_amount } of held) {
    if (unique_amount > next) break
    if (unique_amount === next) next += STEP
  }
  return next <= amount + BigInt(SLOTS) * STEP ? next : undefined
}

/**
 * Pays an unpaid request (open, or expired but paid in time), once: its top-up, the credit,
 * its history line, its notification. False when it was paid already.
 */
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
    .where('status', '!=', 'PAID')
    .executeTakeFirst()
  if (Number(paid.numUpdatedRows) === 0) return false
  const charge = await insertPaidCharge(
    trx,
    {
      user_id: request.user_id,
      name: 'USDT',
      value: request.unique_amount,
      tax: request.tax,
      shipping_value: netOfTax(request.unique_amount, fromMicros(request.tax)),
      currency: 'USD',
      promo_code_id: null,
    },
    at,
  )
  await trx
    .updateTable('usdt_requests')
    .set({ charging_process_id: charge.id })
    .where('id', '=', request.id)
    .execute()
  await creditCharge(trx, charge, { rate, now })
  return true
}

/**
 * Takes the lock of one transaction's transfers for the rest of the database transaction: the
 * watchers (on any instance) and `payments:confirm` decide about a transaction one at a time.
 */
const lockTransaction = (trx: Kysely<Database>, network: UsdtNetwork, hash: string, at: string) =>
  lockKey(trx, `usdt:${network}:${hash}`, at)

/** The transfers recorded for one transaction, oldest first. */
const transfersOf = (trx: Kysely<Database>, network: UsdtNetwork, hash: string) =>
  trx
    .selectFrom('usdt_transfers')
    .selectAll()
    .where('network', '=', network)
    .where('tx_hash', '=', hash)
    .orderBy('id')
    .execute()

export type TransferResult =
  'pending' | 'duplicate' | 'CREDITED' | 'LATE' | 'EXTRA' | 'UNMATCHED' | 'INEXACT'

/**
 * Records a transfer a watcher saw and credits the request it pays. Unconfirmed transfers are
 * left for a later poll. Each transfer (network, transaction, log) is recorded once; a
 * transfer of exactly a request's amount, made after the request and before it expired, pays
 * it; anything else (late, extra, short, stray, dust, older than every request) is recorded
 * for the operator and credits nothing. Several transfers of one transaction each pay their
 * own request. A transaction an operator confirmed by hand (without naming its log) credits
 * nothing more: the transfer of the confirmed amount takes the place of the hand-made record,
 * any other is recorded as extra.
 */
export async function recordTransfer(
  db: Kysely<Database>,
  transfer: ChainTransfer,
  options: { rate: number; now: Date },
): Promise<TransferResult> {
  if (!transfer.confirmed) return 'pending'
  const at = transfer.timestamp.toISOString()
  return inTransaction(db, async (trx) => {
    await lockTransaction(trx, transfer.network, transfer.txHash, options.now.toISOString())
    const known = await transfersOf(trx, transfer.network, transfer.txHash)
    if (known.some((t) => t.log_index === transfer.logIndex)) return 'duplicate'
    const byHand = known.find((t) => t.log_index < 0 && t.outcome === 'CREDITED')
    if (byHand) {
      if (byHand.log_index === -1 && byHand.amount === transfer.amountMicros) {
        await trx
          .updateTable('usdt_transfers')
          .set({
            log_index: transfer.logIndex,
            from_address: transfer.from,
            block_number: transfer.blockNumber,
            block_time: at,
          })
          .where('id', '=', byHand.id)
          .execute()
        return 'duplicate'
      }
    }
    const request =
      transfer.exact && !byHand
        ? await trx
            .selectFrom('usdt_requests')
            .selectAll()
            .where('network', '=', transfer.network)
            .where('address', '=', transfer.to)
            .where('unique_amount', '=', transfer.amountMicros)
            .where('created_at', '<=', at)
            .where('watch_until', '>=', at)
            .orderBy('id', 'desc')
            .executeTakeFirst()
        : undefined
    let outcome: Exclude<TransferResult, 'pending' | 'duplicate'> = !transfer.exact
      ? 'INEXACT'
      : byHand
        ? 'EXTRA'
        : !request
          ? 'UNMATCHED'
          : request.status === 'PAID'
            ? 'EXTRA'
            : at > request.expires_at
              ? 'LATE'
              : 'CREDITED'
    if (outcome === 'CREDITED' && !(await payRequest(trx, request!, transfer.txHash, options)))
      outcome = 'EXTRA'
    await trx
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
        block_time: at,
        outcome,
        request_id: (byHand ? byHand.request_id : request?.id) ?? null,
        created_at: options.now.toISOString(),
      })
      .execute()
    if (outcome !== 'CREDITED')
      await alertOperators(
        trx,
        { kind: 'transfer', amount: transfer.amountMicros, network: transfer.network },
        options.now,
      )
    return outcome
  })
}

/**
 * The operator's confirmation of a transfer seen by other means (no watcher configured, or a
 * late payment the operator accepts): credits an unpaid request once. The hash is read in the
 * request's network's spelling; a hash recorded on the other network, or any transfer of the
 * transaction already credited, is refused. When the watcher recorded the transaction, its
 * uncredited transfer is the one credited (`log` names it when there are several); otherwise
 * the whole transaction is recorded as confirmed by hand (log index -1).
 */
export async function confirmByHand(
  db: Kysely<Database>,
  id: number,
  txHash: string,
  options: { rate: number; now: Date; actor: string; log?: number },
): Promise<UsdtRequestRow> {
  const found = await findRequest(db, undefined, id)
  if (!found) throw new ApiError(404, 'usdt.not_found')
  const hash = canonicalTxHash(found.network, txHash)
  if (!hash) throw new ApiError(422, 'usdt.bad_hash')
  const other: UsdtNetwork = found.network === 'trc20' ? 'bep20' : 'trc20'
  if ((await transfersOf(db, other, canonicalTxHash(other, hash)!)).length > 0)
    throw new ApiError(409, 'usdt.wrong_network', {
      network: other.toUpperCase(),
      payment: found.network.toUpperCase(),
    })
  const at = options.now.toISOString()
  return inTransaction(db, async (trx) => {
    await lockTransaction(trx, found.network, hash, at)
    const request = (await findRequest(trx, undefined, id))!
    const known = await transfersOf(trx, found.network, hash)
    const credited = known.filter((t) => t.outcome === 'CREDITED')
    const open = known.filter(
      (t) => t.outcome !== 'CREDITED' && (options.log === undefined || t.log_index === options.log),
    )
    if (
      credited.some((t) => t.log_index < 0 || t.log_index === options.log) ||
      (open.length === 0 && options.log === undefined && credited.length > 0)
    )
      throw new ApiError(409, 'usdt.hash_used')
    const exact = open.filter((t) => t.amount === request.unique_amount)
    const chosen = open.length === 1 ? open[0] : exact.length === 1 ? exact[0] : undefined
    if (open.length > 1 && !chosen)
      throw new ApiError(409, 'usdt.name_log', { logs: open.map((t) => t.log_index).join(', ') })
    if (!(await payRequest(trx, request, hash, options)))
      throw new ApiError(409, 'usdt.already_paid')
    if (chosen)
      await trx
        .updateTable('usdt_transfers')
        .set({ outcome: 'CREDITED', request_id: request.id })
        .where('id', '=', chosen.id)
        .execute()
    else
      await trx
        .insertInto('usdt_transfers')
        .values({
          network: request.network,
          tx_hash: hash,
          log_index: options.log ?? -1,
          from_address: 'operator',
          to_address: request.address,
          amount: request.unique_amount,
          exact: 1,
          block_number: 0n,
          block_time: at,
          outcome: 'CREDITED',
          request_id: request.id,
          created_at: at,
        })
        .execute()
    const user = await trx
      .selectFrom('users')
      .select(['id', 'username'])
      .where('id', '=', request.user_id)
      .executeTakeFirstOrThrow()
    await recordAudit(trx, {
      actor: options.actor,
      action: 'payments:confirm',
      user,
      details: {
        id,
        tx_hash: hash,
        amount: microsText(request.unique_amount),
        before: { status: request.status },
        after: { status: 'PAID' },
      },
      now: options.now,
    })
    return { ...request, status: 'PAID' as const, tx_hash: hash }
  })
}
