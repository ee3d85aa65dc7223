import { type Insertable } from 'kysely'
import { groupedTransaction } from '../db/group-commit'
import { prepared } from '../db/prepared'
import type { CurrencyCode, IdempotencyKeyTable, OrderRow, OrderTable } from '../db/schema'
import { claimStock } from './stock'
import { isUpstreamPackage } from './upstream-panels'
import { addWalletLog } from './wallet'
import {
  debitLineName,
  debitRefused,
  KeyTaken,
  orderValues,
  placedReply,
  type Placement,
} from './order-ledger-common'

/*
 * An order placed in a transaction of four statements: on SQLite with the other orders of the
 * moment (db/group-commit.ts), or inside a caller's transaction on either database.
 */

// The statements every order runs, built once (db/prepared.ts).
/** The key with its reply, last in the order's transaction; no row when it is taken. */
const keepKey = prepared((db, key: Insertable<IdempotencyKeyTable>) =>
  db
    .insertInto('idempotency_keys')
    .values(key)
    .onConflict((oc) => oc.columns(['user_id', 'key']).doNothing()),
)
/** The conditional debit: no row when the balance is short or the currency is not `currency`. */
const debit = prepared(
  (db, { id, total, currency }: { id: number; total: bigint; currency: CurrencyCode }) =>
    db
      .updateTable('users')
      .set((eb) => ({ balance: eb('balance', '-', total) }))
      .where('id', '=', id)
      .where('balance', '>=', total)
      .where('currency', '=', currency)
      .returning('balance'),
)
/** Only the id comes back: the row is the values given (as on PostgreSQL's one statement). */
const insertOrder = prepared((db, order: Insertable<OrderTable>) =>
  db.insertInto('orders').values(order).returning('id'),
)

export const placeInTransaction: Placement = async (
  db,
  user,
  order,
  { key, requestHash: hash, wire, now, at },
) => {
  const total = order.totalPrice
  // On SQLite, in one transaction with the other orders of the moment (db/group-commit.ts).
  return groupedTransaction(db, async (trx) => {
    // Priced in this currency: a switch since then must not debit the converted balance.
    const [debited] = (await debit(trx, { id: user.id, total, currency: order.currency })).rows
    if (!debited) throw await debitRefused(trx, user, order)
    const values = orderValues(user, order, at)
    const [inserted] = (await insertOrder(trx, values)).rows
    if (!inserted) throw new Error('the order insert returned no row')
    let placed: OrderRow = { id: inserted.id, ...values }
    const stock = await claimStock(trx, placed, at)
    if (stock)
      placed = { ...placed, status: 'COMPLETED', expiry_date: stock.expiryDate, updated_at: at }
    await addWalletLog(trx, {
      userId: user.id,
      status: 'Discounted',
      name: (locale) => debitLineName(locale, placed),
      previousBalance: debited.balance + total,
      value: total,
      currentBalance: debited.balance,
      currency: order.currency,
      now,
    })
    const reply = placedReply(placed, user, wire, debited.balance)
    if (key !== undefined) {
      const kept = await keepKey(trx, {
        user_id: user.id,
        key,
        request_hash: hash,
        order_id: placed.id,
        reply: JSON.stringify(reply),
        created_at: at,
      })
      // Taken by an earlier call: this one is undone and answers with that call's reply.
      if (Number(kept.numAffectedRows ?? 0) === 0) throw new KeyTaken()
    }
    // Asked here rather than after the commit: inside the transaction it is one more lookup on
    // the write connection, not a read of its own (docs/performance.md, Orders).
    const upstream = stock === undefined && (await isUpstreamPackage(trx, placed.package_id))
    return { placed: true as const, reply, order: placed, stocked: stock !== undefined, upstream }
  })
}
