import type { Kysely } from 'kysely'
import type * as v from 'valibot'
import { CHARGE_STATES, LIST_SORTS } from '../../src/contract/constants'
import { RECEIPT_METHOD_ENTRIES } from '../../src/contract/payment-methods'
import type {
  ChargingProcessSchema,
  ChargingStatus,
  ReceiptMethod,
} from '../../src/contract/wallet'
import { fromMicros, netOfTax } from '../../src/domain/money'
import type { Database, UserRow } from '../db/schema'
import type { ChargingProcessRow } from '../db/schema-wallet'
import { inTransaction } from '../db/transaction'
import { ApiError, TooManyRequestsError } from '../core/errors'
import { listCall, mapPage, type ListQuery, type Page } from '../core/paging'
import { t } from '../i18n'
import { localDateTime } from './dates'
import { noticeMoney, notify } from './notifications'
import { minutesUntil } from './codes'
import { forgetHit, hitRateLimit } from './rate-limit'
import { isUniqueViolation } from './users'
import { addWalletLog, convertBetween, lockUser } from './wallet'
import { recordAudit } from './audit'
import { alertOperators } from './operator-alerts'
import { methodOffered, paymentSettings } from './settings'
import { promoKey } from './promo-codes'

/*
 * Money in (docs/api.md, Wallet): receipts an operator approves or rejects, promo codes that
 * credit at once. Every credit runs in one transaction with its history line and its
 * notification, and is guarded so that it happens once whatever races it.
 */

export type ChargingProcessWire = v.InferInput<typeof ChargingProcessSchema>

export const CHARGES_PER_PAGE = 10

const percent = (micros: number) => fromMicros(micros)

// ---- replies --------------------------------------------------------------------------------

export function chargeWire(row: ChargingProcessRow, timeZone: string): ChargingProcessWire {
  return {
    id: row.id,
    name: row.name,
    image: row.receipt_file ? `/api/charging-processes/${row.id}/receipt` : null,
    value: fromMicros(row.value),
    shipping_value: fromMicros(row.shipping_value),
    tax_percentage: percent(row.tax),
    currency: row.currency,
    status: row.status,
    reject_reason: row.reject_reason,
    ...localDateTime(row.created_at, timeZone),
    created_at: row.created_at,
  }
}

/** GET charging-processes: the user's top-ups, newest first or as sorted, by state. */
export async function listCharges(
  db: Kysely<Database>,
  userId: number,
  query: ListQuery & { page?: string },
  timeZone: string,
): Promise<Page<ChargingProcessWire>> {
  const list = listCall(query, {
    sorts: LIST_SORTS.charges,
    states: CHARGE_STATES,
    perPage: CHARGES_PER_PAGE,
  })
  let base = db.selectFrom('charging_processes').where('user_id', '=', userId)
  if (list.state) base = base.where('status', '=', list.state)
  const page = await list.page(base)
  return mapPage(page, (row) => chargeWire(row, timeZone))
}

/** Top-ups of every customer, newest first, by state and customer (charges:list). */
export async function findCharges(
  db: Kysely<Database>,
  filters: { status?: ChargingStatus; userId?: number },
  limit: number,
) {
  let query = db
    .selectFrom('charging_processes')
    .innerJoin('users', 'users.id', 'charging_processes.user_id')
    .selectAll('charging_processes')
    .select('users.username as username')
  if (filters.userId !== undefined)
    query = query.where('charging_processes.user_id', '=', filters.userId)
  if (filters.status) query = query.where('charging_processes.status', '=', filters.status)
  return query
    .orderBy('charging_processes.created_at', 'desc')
    .orderBy('charging_processes.id', 'desc')
    .limit(limit)
    .execute()
}

/** One of the user's top-ups; another customer's is not found either. */
export function findCharge(db: Kysely<Database>, userId: number | undefined, id: number) {
  let query = db.selectFrom('charging_processes').selectAll().where('id', '=', id)
  if (userId !== undefined) query = query.where('user_id', '=', userId)
  return query.executeTakeFirst()
}

// ---- receipts -------------------------------------------------------------------------------

export interface ReceiptCharge {
  name: ReceiptMethod
  /** Micro-units of the wallet's currency. */
  value: bigint
  receiptFile: string
}

/**
 * A receipt method's top-up (Whish Money, OMT Pay...) with its receipt, waiting for the operator. The tax is the
 * method's at the time of the request; nothing is credited yet.
 */
export async function createReceiptCharge(
  db: Kysely<Database>,
  user: UserRow,
  charge: ReceiptCharge,
  { now, maxWaiting }: { now: Date; maxWaiting: number },
): Promise<ChargingProcessRow> {
  const settings = await paymentSettings(db)
  const method = RECEIPT_METHOD_ENTRIES.find((m) => m.id === charge.name)!
  if (!methodOffered(settings, method)) throw new ApiError(422, 'charging.method_unavailable')
  const tax = settings[`${method.key}_tax`]
  const at = now.toISOString()
  return inTransaction(db, async (trx) => {
    // One at a time per customer (the row lock), so parallel uploads cannot pass the cap.
    await lockUser(trx, user.id)
    await assertFewWaiting(trx, user.id, maxWaiting)
    const made = await trx
      .insertInto('charging_processes')
      .values({
        user_id: user.id,
        name: charge.name,
        value: charge.value,
        tax,
        shipping_value: netOfTax(charge.value, percent(tax)),
        currency: user.currency,
        status: 'WAITING',
        reject_reason: null,
        receipt_file: charge.receiptFile,
        promo_code_id: null,
        created_at: at,
        updated_at: at,
        decided_at: null,
      })
      .returningAll()
      .executeTakeFirstOrThrow()
    await alertOperators(trx, { kind: 'receipt', id: made.id, username: user.username }, now)
    return made
  })
}

/**
 * 422 when the customer already has `max` receipt top-ups waiting for the operator
 * (RECEIPTS_WAITING_PER_USER): asked before the photo is decoded, and again when it is saved.
 */
export async function assertFewWaiting(db: Kysely<Database>, userId: number, max: number) {
  const { waiting } = await db
    .selectFrom('charging_processes')
    .select((eb) => eb.fn.countAll<number>().as('waiting'))
    .where('user_id', '=', userId)
    .where('status', '=', 'WAITING')
    .executeTakeFirstOrThrow()
  if (Number(waiting) >= max) throw new ApiError(422, 'charging.too_many_waiting', { max })
}

/** A top-up paid as it is made (a promo code, a USDT transfer): recorded COMPLETED at once. */
export function insertPaidCharge(
  trx: Kysely<Database>,
  charge: Pick<
    ChargingProcessRow,
    'user_id' | 'name' | 'value' | 'tax' | 'shipping_value' | 'currency' | 'promo_code_id'
  >,
  at: string,
) {
  return trx
    .insertInto('charging_processes')
    .values({
      ...charge,
      status: 'COMPLETED',
      reject_reason: null,
      receipt_file: null,
      created_at: at,
      updated_at: at,
      decided_at: at,
    })
    .returningAll()
    .executeTakeFirstOrThrow()
}

/** Credits a charging process's net value to its owner: the balance, the line, the notice. */
export async function creditCharge(
  trx: Kysely<Database>,
  charge: ChargingProcessRow,
  { rate, now }: { rate: number; now: Date },
): Promise<UserRow> {
  const locked = await lockUser(trx, charge.user_id)
  // The wallet may have changed currency since the request.
  const credited = convertBetween(charge.shipping_value, charge.currency, locked.currency, rate)
  const user = await trx
    .updateTable('users')
    .set((eb) => ({ balance: eb('balance', '+', credited) }))
    .where('id', '=', charge.user_id)
    .returningAll()
    .executeTakeFirstOrThrow()
  await addWalletLog(trx, {
    userId: user.id,
    status: 'Charged',
    name: (locale) =>
      t(locale, 'wallet.charge_credit', {
        id: charge.id,
        method: t(locale, `charging.method.${charge.name}`),
      }),
    previousBalance: user.balance - credited,
    value: credited,
    currentBalance: user.balance,
    currency: user.currency,
    now,
  })
  await notify(
    trx,
    user,
    {
      message: 'charge_completed',
      values: {
        id: charge.id,
        method: { message: `charging.method.${charge.name}` },
        amount: noticeMoney(credited, user.currency),
      },
      subject: { kind: 'top-up', id: charge.id },
    },
    now,
  )
  return user
}

export type Decision =
  | { changed: true; charge: ChargingProcessRow; user?: UserRow }
  | { changed: false; charge: ChargingProcessRow | undefined }

/**
 * WAITING to COMPLETED and the credit, once: the status change is guarded by WAITING, so of
 * two approvals at the same moment one finds no row and credits nothing.
 */
export function approveCharge(
  db: Kysely<Database>,
  id: number,
  { actor, ...options }: { rate: number; now: Date; actor: string },
): Promise<Decision> {
  return inTransaction(db, async (trx) => {
    const at = options.now.toISOString()
    const charge = await trx
      .updateTable('charging_processes')
      .set({ status: 'COMPLETED', updated_at: at, decided_at: at })
      .where('id', '=', id)
      .where('status', '=', 'WAITING')
      .returningAll()
      .executeTakeFirst()
    if (!charge) return { changed: false, charge: await findCharge(trx, undefined, id) }
    const user = await creditCharge(trx, charge, options)
    await recordAudit(trx, {
      actor,
      action: 'charges.approve',
      user,
      details: { id, net: fromMicros(charge.shipping_value), currency: charge.currency },
      now: options.now,
    })
    return { changed: true, charge, user }
  })
}

/** WAITING to CANCELED with the reason, and a notification; nothing is credited. */
export function rejectCharge(
  db: Kysely<Database>,
  id: number,
  { reason, now, actor }: { reason: string; now: Date; actor: string },
): Promise<Decision> {
  return inTransaction(db, async (trx) => {
    const at = now.toISOString()
    const charge = await trx
      .updateTable('charging_processes')
      .set({ status: 'CANCELED', reject_reason: reason, updated_at: at, decided_at: at })
      .where('id', '=', id)
      .where('status', '=', 'WAITING')
      .returningAll()
      .executeTakeFirst()
    if (!charge) return { changed: false, charge: await findCharge(trx, undefined, id) }
    const user = await trx
      .selectFrom('users')
      .select(['id', 'username', 'locale'])
      .where('id', '=', charge.user_id)
      .executeTakeFirstOrThrow()
    await recordAudit(trx, { actor, action: 'charges.reject', user, details: { id, reason }, now })
    await notify(
      trx,
      { id: charge.user_id, locale: user.locale },
      {
        message: 'charge_canceled',
        values: {
          id: charge.id,
          method: { message: `charging.method.${charge.name}` },
          reason: reason.replace(/[.\s]+$/, ''),
        },
        subject: { kind: 'top-up', id: charge.id },
      },
      now,
    )
    return { changed: true, charge }
  })
}

// ---- promo codes (made and listed in promo-codes.ts) -------------------------------------

const HOUR_MS = 60 * 60_000

/**
 * `redeemPromo`, with wrong codes counted per customer and per address (an hour's window each,
 * PROMO_FAILURES_PER_USER_PER_HOUR and _PER_IP_PER_HOUR): past either, 429 before any code is
 * looked at. Each try is counted in advance, so parallel guesses cannot all pass before one
 * is counted; a code that is taken gives its try back.
 */
export async function redeemPromoCounted(
  db: Kysely<Database>,
  who: { userId: number; ip: string | null },
  code: string,
  options: { rate: number; now: Date; limits: { perUser: number; perIp: number } },
): Promise<{ charge: ChargingProcessRow; user: UserRow }> {
  const { now, limits } = options
  const counts = [
    { key: `promo-fail:user:${who.userId}`, limit: limits.perUser },
    ...(who.ip ? [{ key: `promo-fail:ip:${who.ip}`, limit: limits.perIp }] : []),
  ]
  for (const { key, limit } of counts) {
    const counted = await hitRateLimit(db, { key, limit, windowMs: HOUR_MS, now })
    if (!counted.allowed) {
      const until = now.getTime() + counted.retryAfterMs
      throw new TooManyRequestsError('promo.too_many', counted.retryAfterMs / 1000, {
        minutes: minutesUntil(until, now.getTime()),
      })
    }
  }
  const redeemed = await redeemPromo(db, who.userId, code, options)
  for (const { key } of counts) await forgetHit(db, { key, windowMs: HOUR_MS, now })
  return redeemed
}

/**
 * Redeems a code for a customer, in one transaction: the code's use is counted only while it
 * has uses left (a guarded update), the customer's redemption is a unique pair (a second use
 * by them finds it taken), and the credit, its history line and its notification commit with
 * them. Ten parallel redemptions of a one-use code credit once.
 */
export function redeemPromo(
  db: Kysely<Database>,
  userId: number,
  code: string,
  { rate, now }: { rate: number; now: Date },
): Promise<{ charge: ChargingProcessRow; user: UserRow }> {
  return inTransaction(db, async (trx) => {
    const at = now.toISOString()
    const promo = await trx
      .selectFrom('promo_codes')
      .selectAll()
      .where('code_key', '=', promoKey(code))
      .where('disabled_at', 'is', null)
      .executeTakeFirst()
    if (!promo) throw new ApiError(422, 'promo.invalid')
    if (promo.expires_at !== null && promo.expires_at <= at)
      throw new ApiError(422, 'promo.expired')
    const already = await trx
      .selectFrom('promo_redemptions')
      .select('user_id')
      .where('promo_code_id', '=', promo.id)
      .where('user_id', '=', userId)
      .executeTakeFirst()
    if (already) throw new ApiError(422, 'promo.already_used')
    const counted = await trx
      .updateTable('promo_codes')
      .set((eb) => ({ uses: eb('uses', '+', 1) }))
      .where('id', '=', promo.id)
      .where((eb) => eb('uses', '<', eb.ref('uses_allowed')))
      .executeTakeFirst()
    if (Number(counted.numUpdatedRows) === 0) throw new ApiError(422, 'promo.used_up')

    const charge = await insertPaidCharge(
      trx,
      {
        user_id: userId,
        name: 'PROMO_CODE',
        value: promo.value,
        tax: 0,
        shipping_value: promo.value,
        currency: promo.currency,
        promo_code_id: promo.id,
      },
      at,
    )
    // The pair is the primary key: a second redemption by this customer racing this one
    // fails here and rolls everything back.
    await trx
      .insertInto('promo_redemptions')
      .values({
        promo_code_id: promo.id,
        user_id: userId,
        charging_process_id: charge.id,
        created_at: at,
      })
      .execute()
    const user = await creditCharge(trx, charge, { rate, now })
    return { charge, user }
  }).catch((err: unknown) => {
    if (isUniqueViolation(err))
      throw new ApiError(422, 'promo.already_used', undefined, { cause: err })
    throw err
  })
}
