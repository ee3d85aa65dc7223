import { metrics } from '../metrics'
import { CompiledQuery, PostgresAdapter, type Kysely } from 'kysely'
import type { PlacedOrder, Provider, ProviderOrder } from '../adapters/provider'
import type { Database, LocaleCode, OrderRow, OrderStatus } from '../db/schema'
import { inBackground } from '../db/background'
import { nameStatement } from '../db/named-statements'
import { groupedStatement } from '../db/group-commit'
import { prepared } from '../db/prepared'
import { inTransaction } from '../db/transaction'
import { TurnBatch } from '../db/turn-batch'
import { t } from '../i18n'
import type { Logger } from '../log'
import { errorFields } from '../log'
import { fromMicros } from '../../src/domain/money'
import { recordAudit } from './audit'
import { inEachLanguage, noticeMoney, notify } from './notifications'
import { itemName } from './item-name'
import { storedAnswers } from './purchase-terms'
import { addWalletLog, convertBetween, lockUser } from './wallet'

/*
 * What happens to an order after it is placed. The operator's commands (cli/orders.ts) and
 * the provider refresh (GET automated/get/status/bulk) both come here, so an order is
 * completed or refunded the same way whoever decides it.
 */

/** The states an order can still leave. FAILED: the provider refused it; an operator decides. */
export const OPEN_STATUSES: OrderStatus[] = ['WAITING', 'FAILED']

export type StatusChange =
  { changed: true; order: OrderRow } | { changed: false; order: OrderRow | undefined }

export interface Completion {
  codes?: string[]
  note?: string | null
  expiryDate?: string | null
  now: Date
  /** The operator who decided it (cli/orders.ts, the console), for the audit log. */
  actor?: string
}

/**
 * WAITING or FAILED to COMPLETED, with the delivered codes and a note, and a notification.
 * `changed: false` when the order does not exist or was no longer open.
 */
export async function completeOrder(
  db: Kysely<Database>,
  orderId: number,
  { codes = [], note = null, expiryDate = null, now, actor }: Completion,
): Promise<StatusChange> {
  return inTransaction(db, async (trx) => {
    const order = await trx
      .updateTable('orders')
      .set({
        status: 'COMPLETED',
        item_codes: JSON.stringify(codes.map((code) => ({ code }))),
        accept_note: note,
        expiry_date: expiryDate,
        updated_at: now.toISOString(),
      })
      .where('id', '=', orderId)
      .where('status', 'in', OPEN_STATUSES)
      .returningAll()
      .executeTakeFirst()
    if (!order) return { changed: false, order: await orderById(trx, orderId) }
    const user = await trx
      .selectFrom('users')
      .select(['id', 'username', 'locale'])
      .where('id', '=', order.user_id)
      .executeTakeFirstOrThrow()
    if (actor)
      await recordAudit(trx, {
        actor,
        action: 'orders.complete',
        user,
        // The codes themselves are the customer's: the log keeps how many.
        details: { order: order.id, codes: codes.length, note, expiry: expiryDate },
        now,
      })
    await notifyCompleted(trx, order, user.locale, now)
    return { changed: true, order }
  })
}

/**
 * The notification (and push) of a completed order: the operator's or the provider's
 * completion, or the code stock's (services/orders.ts).
 */
export function notifyCompleted(
  trx: Kysely<Database>,
  order: OrderRow,
  locale: LocaleCode,
  now: Date,
): Promise<void> {
  return notify(
    trx,
    { id: order.user_id, locale },
    {
      message: 'order_completed',
      values: { id: order.id, item: inEachLanguage((locale) => itemName(order, locale)) },
      subject: { kind: 'order', id: order.id },
    },
    now,
  )
}

export interface Cancellation {
  reason: string
  /** LBP per USD, for an order paid in the currency the wallet has since left. */
  lbpRate: number
  now: Date
  /** The operator who decided it, for the audit log. */
  actor?: string
}

/**
 * WAITING or FAILED to CANCELED, and the money back, exactly once: the status change is
 * guarded by the open states, so of two cancels at the same moment one finds no row and
 * refunds nothing. The refund, its Charged history line and the notification commit with it.
 */
export async function cancelOrder(
  db: Kysely<Database>,
  orderId: number,
  { reason, lbpRate, now, actor }: Cancellation,
): Promise<StatusChange & { refund?: bigint }> {
  return inTransaction(db, async (trx) => {
    const order = await trx
      .updateTable('orders')
      .set({ status: 'CANCELED', refuse_reason: reason, updated_at: now.toISOString() })
      .where('id', '=', orderId)
      .where('status', 'in', OPEN_STATUSES)
      .returningAll()
      .executeTakeFirst()
    if (!order) return { changed: false, order: await orderById(trx, orderId) }

    const { refund, user } = await refundToWallet(trx, order, order.total_price, {
      lbpRate,
      now,
      line: (locale) =>
        t(locale, 'wallet.order_refund', { id: order.id, item: itemName(order, locale) }),
    })
    if (actor)
      await recordAudit(trx, {
        actor,
        action: 'orders.cancel',
        user: { id: order.user_id, username: user.username },
        details: { order: order.id, reason, refund: fromMicros(refund), currency: user.currency },
        now,
      })
    await notify(
      trx,
      { id: order.user_id, locale: user.locale },
      {
        message: 'order_canceled',
        values: {
          id: order.id,
          item: inEachLanguage((locale) => itemName(order, locale)),
          reason: reason.replace(/[.\s]+$/, ''),
          amount: noticeMoney(refund, user.currency),
        },
        subject: { kind: 'order', id: order.id },
      },
      now,
    )
    return { changed: true, order, refund }
  })
}

/**
 * Puts `amount` of an order's price (in the order's currency) back in its owner's wallet, in
 * the caller's transaction: converted when the wallet has switched currency since, with its
 * Charged history line named by `line` in the owner's language.
 */
async function refundToWallet(
  trx: Kysely<Database>,
  order: OrderRow,
  amount: bigint,
  { lbpRate, now, line }: { lbpRate: number; now: Date; line: (locale: LocaleCode) => string },
) {
  const locked = await lockUser(trx, order.user_id)
  const refund = convertBetween(amount, order.currency, locked.currency, lbpRate)
  const user = await trx
    .updateTable('users')
    .set((eb) => ({ balance: eb('balance', '+', refund) }))
    .where('id', '=', order.user_id)
    .returning(['username', 'balance', 'currency', 'locale'])
    .executeTakeFirstOrThrow()
  await addWalletLog(trx, {
    userId: order.user_id,
    status: 'Charged',
    name: line,
    previousBalance: user.balance - refund,
    value: refund,
    currentBalance: user.balance,
    currency: user.currency,
    now,
  })
  return { refund, user }
}

export interface PartialDelivery {
  /** What was not delivered. */
  remains: number
  lbpRate: number
  now: Date
}

/**
 * An order delivered in part (an upstream panel's Partial, or orders:complete --remains):
 * COMPLETED with a note saying what was delivered, and the price of the remains (rounded down)
 * back in the wallet, with its history line and a notification. Once: the status change is
 * guarded by the open states, and the refund's row in order_partials has the order as its
 * primary key.
 */
export async function partialOrder(
  db: Kysely<Database>,
  orderId: number,
  { remains, lbpRate, now }: PartialDelivery,
): Promise<StatusChange & { refund?: bigint }> {
  return inTransaction(db, async (trx) => {
    const current = await orderById(trx, orderId)
    if (!current || !OPEN_STATUSES.includes(current.status))
      return { changed: false, order: current }
    const left = Math.min(Math.max(remains, 1), current.quantity)
    const { locale } = await trx
      .selectFrom('users')
      .select('locale')
      .where('id', '=', current.user_id)
      .executeTakeFirstOrThrow()
    const note = t(locale, 'order.partial_note', {
      delivered: current.quantity - left,
      quantity: current.quantity,
    })
    const order = await trx
      .updateTable('orders')
      .set({ status: 'COMPLETED', accept_note: note, updated_at: now.toISOString() })
      .where('id', '=', orderId)
      .where('status', 'in', OPEN_STATUSES)
      .returningAll()
      .executeTakeFirst()
    if (!order) return { changed: false, order: current }
    const paid = (order.total_price * BigInt(left)) / BigInt(order.quantity)
    const { refund, user } = await refundToWallet(trx, order, paid, {
      lbpRate,
      now,
      line: (locale) =>
        t(locale, 'wallet.order_partial_refund', {
          id: order.id,
          item: itemName(order, locale),
          remains: left,
        }),
    })
    await trx
      .insertInto('order_partials')
      .values({
        order_id: order.id,
        remains: left,
        amount: refund,
        currency: user.currency,
        created_at: now.toISOString(),
      })
      .execute()
    await notify(
      trx,
      { id: order.user_id, locale: user.locale },
      {
        message: 'order_partial',
        values: {
          id: order.id,
          item: inEachLanguage((locale) => itemName(order, locale)),
          remains: left,
          amount: noticeMoney(refund, user.currency),
        },
        subject: { kind: 'order', id: order.id },
      },
      now,
    )
    return { changed: true, order, refund }
  })
}

function orderById(db: Kysely<Database>, id: number) {
  return db.selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirst()
}

/** At most this many open orders are checked per refresh. */
const REFRESH_LIMIT = 200
/** An order without a provider reference this old missed its hand-over (provider down). */
const HAND_OVER_RETRY_AFTER_MS = 60_000
const HAND_OVER_RETRY_LIMIT = 20

/**
 * Asks the provider about a user's open orders it took and applies what it says; first hands
 * over again the ones it never took (it was unreachable when they were placed). Returns how
 * many orders changed. A ProviderError from the status call propagates: nothing was changed.
 */
export async function refreshOrders(
  db: Kysely<Database>,
  provider: Provider,
  userId: number,
  { lbpRate, now, logger }: { lbpRate: number; now: Date; logger?: Logger },
): Promise<number> {
  const stranded = await db
    .selectFrom('orders')
    .selectAll()
    .where('user_id', '=', userId)
    .where('status', '=', 'WAITING')
    .where('provider_ref', 'is', null)
    .where('created_at', '<', new Date(now.getTime() - HAND_OVER_RETRY_AFTER_MS).toISOString())
    // An upstream panel's orders are placed by services/upstream.ts, never by the provider.
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('upstream_services')
            .select('package_id')
            .whereRef('upstream_services.package_id', '=', 'orders.package_id'),
        ),
      ),
    )
    .orderBy('id')
    .limit(HAND_OVER_RETRY_LIMIT)
    .execute()
  for (const order of stranded) await handOver(db, provider, order, { now, logger })

  const open = await db
    .selectFrom('orders')
    .select(['id', 'provider_ref'])
    .where('user_id', '=', userId)
    .where('status', '=', 'WAITING')
    .where('provider_ref', 'is not', null)
    .orderBy('id')
    .limit(REFRESH_LIMIT)
    .execute()
  if (open.length === 0) return 0
  const byRef = new Map(open.map((o) => [o.provider_ref!, o.id]))
  const answers = await provider.orderStatus([...byRef.keys()])
  let updated = 0
  let locale: LocaleCode | undefined
  for (const answer of answers) {
    const id = byRef.get(answer.ref)
    if (id === undefined) continue
    if (answer.status === 'COMPLETED') {
      const done = await completeOrder(db, id, {
        codes: answer.codes,
        note: answer.note ?? null,
        expiryDate: answer.expiryDate ?? null,
        now,
      })
      if (done.changed) updated++
    } else if (answer.status === 'CANCELED') {
      locale ??= (
        await db
          .selectFrom('users')
          .select('locale')
          .where('id', '=', userId)
          .executeTakeFirstOrThrow()
      ).locale
      const reason = answer.reason?.trim() || t(locale, 'order.canceled_by_provider')
      const done = await cancelOrder(db, id, { reason, lbpRate, now })
      if (done.changed) updated++
    }
  }
  return updated
}

/** What the provider is told about an order. */
export function providerOrder(order: OrderRow): ProviderOrder {
  const requirements = Object.fromEntries(
    storedAnswers(order.requirements).map((answer) => [answer.name, answer.value]),
  )
  return {
    id: order.id,
    productId: order.product_id,
    packageId: order.package_id,
    providerPackageId: order.provider_package_id,
    productReference: order.product_reference,
    quantity: order.quantity,
    playerNumber: order.player_number,
    playerName: order.player_name,
    serviceType: order.service_type,
    socialLink: order.social_link,
    walletAddress: order.wallet_address,
    emailOrPhoneNumber: order.email_or_phone_number,
    password: order.password,
    contactNumber: order.contact_number,
    requirements,
  }
}

type HandedOver = {
  id: number
  provider_ref: string | null
  status: OrderStatus
  updated_at: string
}

/** The provider took a new order: every order runs this, built once (db/prepared.ts). */
const handedOver = prepared((db, a: HandedOver) =>
  db
    .updateTable('orders')
    .set({ provider_ref: a.provider_ref, status: a.status, updated_at: a.updated_at })
    .where('id', '=', a.id)
    .where('status', '=', 'WAITING'),
)

/**
 * handedOver for many orders at once, on PostgreSQL: one statement, one commit. A named
 * statement (db/named-statements.ts), parsed and planned once per connection: the function
 * (migration 0012_order_functions) updates each order by its primary key, whatever plan
 * PostgreSQL keeps.
 */
const HANDED_OVER_MANY =
  'select record_hand_overs($1::bigint[], $2::text[], $3::text[], $4::text[])'
nameStatement(HANDED_OVER_MANY)

const handOverBatches = new WeakMap<Kysely<Database>, TurnBatch<HandedOver>>()

/**
 * Records a hand-over. On SQLite it is committed with the orders of the moment
 * (db/group-commit.ts); on PostgreSQL, with the other hand-overs of the same turn of the event
 * loop, in one statement (db/turn-batch.ts), rather than a statement and a commit each.
 */
function recordHandOver(db: Kysely<Database>, row: HandedOver): Promise<unknown> {
  if (db.isTransaction || !(db.getExecutor().adapter instanceof PostgresAdapter))
    return groupedStatement(db, (db) => handedOver(db, row))
  let batch = handOverBatches.get(db)
  if (!batch) {
    batch = new TurnBatch<HandedOver>(async (rows) => {
      await db.executeQuery(
        CompiledQuery.raw(HANDED_OVER_MANY, [
          rows.map((r) => r.id),
          rows.map((r) => r.provider_ref),
          rows.map((r) => r.status),
          rows.map((r) => r.updated_at),
        ]),
      )
      return rows.map(() => undefined)
    })
    handOverBatches.set(db, batch)
  }
  return batch.add(row)
}

/**
 * Hands a committed order to the provider, best effort: the customer has paid and the order
 * exists whatever happens here. The provider's reference is kept for the status refresh; a
 * refusal marks the order FAILED (shown as waiting) for an operator to complete or cancel; an
 * unreachable provider leaves it WAITING without a reference, for the operator too, and for
 * the refresh to hand over again. With `recordLater` (the order's reply, which does not
 * carry the answer) the call resolves once the provider has answered, and the answer is
 * recorded in the background (db/background.ts).
 */
export async function handOver(
  db: Kysely<Database>,
  provider: Provider,
  order: OrderRow,
  { now, logger, recordLater = false }: { now: Date; logger?: Logger; recordLater?: boolean },
): Promise<void> {
  const failed = (err: unknown) => {
    metrics.handOverFailures.inc()
    logger?.error('order hand-over failed', { order: order.id, ...errorFields(err) })
  }
  let placed: PlacedOrder
  try {
    placed = await provider.placeOrder(providerOrder(order))
  } catch (err) {
    return failed(err)
  }
  const recorded = recordHandOver(db, {
    id: order.id,
    provider_ref: placed.ref,
    status: placed.status,
    updated_at: now.toISOString(),
  }).then(() => undefined, failed)
  if (recordLater) inBackground(db, recorded)
  else await recorded
}
