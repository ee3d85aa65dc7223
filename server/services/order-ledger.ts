import { PostgresAdapter, type Kysely } from 'kysely'
import { ValidationError } from '../core/errors'
import type { Database, UserRow } from '../db/schema'
import { metrics } from '../metrics'
import { ORDER_FIELD_LABELS } from './order-queries'
import {
  DebitRefused,
  debitRefusal,
  KeyTaken,
  type PlaceOptions,
  type PlaceOrderReply,
  type PlaceResult,
  type Placement,
  type PreparedOrder,
} from './order-ledger-common'
import { placeInOneStatement } from './order-ledger-statement'
import { placeInTransaction } from './order-ledger-transaction'

/*
 * The order ledger: an order paid and recorded once, with its debit, its wallet line, its codes
 * when the package has them in stock (services/stock.ts) and its Idempotency-Key, in one
 * transaction (SQLite, several orders a commit) or one statement (PostgreSQL, several orders a
 * call of place_orders, each then given its codes by claim_stock); a repeated key is answered
 * with its first reply.
 */

export type { PlaceOrderReply, PreparedOrder, PlaceOptions, PlaceResult }

/**
 * A stored reply for this user's key, or undefined. A key used with a different request is
 * refused (422), so a client bug cannot turn one order's retry into another order.
 */
export async function replayed(
  db: Kysely<Database>,
  userId: number,
  key: string,
  hash: string,
): Promise<PlaceOrderReply | undefined> {
  const row = await db
    .selectFrom('idempotency_keys')
    .select(['request_hash', 'reply'])
    .where('user_id', '=', userId)
    .where('key', '=', key)
    .executeTakeFirst()
  if (!row) return undefined
  if (row.request_hash !== hash)
    throw new ValidationError(
      [{ field: 'idempotency_key', id: 'order.idempotency.conflict' }],
      ORDER_FIELD_LABELS,
    )
  if (row.reply === null) throw new Error(`idempotency key ${key} has no reply`)
  return JSON.parse(row.reply) as PlaceOrderReply
}

const isPostgres = (db: Kysely<Database>) => db.getExecutor().adapter instanceof PostgresAdapter

/**
 * Pays for and records a prepared order, atomically: the conditional debit (nothing happens
 * when the balance is short or the currency is not the one it was priced in), the order, its
 * wallet history line, its codes from the stock (then it is COMPLETED: `stocked`) and, last, the
 * Idempotency-Key with the reply. The key's primary key
 * makes a second call with the same key lose: it waits for the first (on the user's row or
 * the key), then finds the key taken, everything it did is undone, and it answers with the
 * stored reply. A call refused for its balance also looks for its key first: a repeat of an
 * order that spent the money answers as that order did.
 *
 * On PostgreSQL, outside a caller's transaction, this is one statement (a round trip instead
 * of seven, docs/architecture.md "Orders"), shared with the orders of other wallets that come
 * in at the same moment; elsewhere it is one transaction of four.
 */
export async function placeOrder(
  db: Kysely<Database>,
  user: UserRow,
  order: PreparedOrder,
  options: PlaceOptions,
): Promise<PlaceResult> {
  const { key, requestHash: hash } = options
  try {
    const place: Placement =
      !db.isTransaction && isPostgres(db) ? placeInOneStatement : placeInTransaction
    const result = await place(db, user, order, { ...options, at: options.now.toISOString() })
    if (result.placed) metrics.ordersPlaced.inc()
    return result
  } catch (err) {
    if (!(err instanceof KeyTaken || err instanceof DebitRefused)) {
      metrics.ordersFailed.inc({ reason: 'error' })
      throw err
    }
    const earlier = key === undefined ? undefined : await replayed(db, user.id, key, hash)
    if (earlier) return { placed: false, reply: earlier }
    if (err instanceof DebitRefused) {
      metrics.ordersFailed.inc({ reason: 'balance' })
      throw debitRefusal(err.currencyChanged)
    }
    throw new Error(`idempotency key ${key} vanished`, { cause: err })
  }
}
