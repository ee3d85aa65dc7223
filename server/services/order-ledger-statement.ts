import { CompiledQuery, type Kysely } from 'kysely'
import { fromMicros } from '../../src/domain/money'
import { nameStatement } from '../db/named-statements'
import type { CurrencyCode, Database, OrderRow } from '../db/schema'
import { TurnBatch } from '../db/turn-batch'
import { LOCALES, t } from '../i18n'
import { orderWire } from './order-queries'
import {
  debitLineName,
  debitRefused,
  KeyTaken,
  orderValues,
  type PlaceOrderReply,
  type Placement,
} from './order-ledger-common'

/*
 * An order placed in one PostgreSQL statement, shared with the orders of other wallets that
 * come in at the same moment (docs/architecture.md "Orders").
 */

/**
 * Order ids for the one-statement insert, taken from the table's own sequence a block at a
 * time (a block costs one round trip); ids a stopped server had taken are never used, as a
 * sequence's cache would leave them.
 */
const ID_BLOCK = 32
const idBlocks = new WeakMap<Kysely<Database>, { ids: number[]; next?: Promise<void> }>()

async function nextOrderId(db: Kysely<Database>): Promise<number> {
  let block = idBlocks.get(db)
  if (!block) idBlocks.set(db, (block = { ids: [] }))
  for (;;) {
    const id = block.ids.shift()
    if (id !== undefined) return id
    block.next ??= (async () => {
      try {
        const { rows } = await db.executeQuery<{ id: number }>(takeIds)
        block.ids.push(...rows.map((row) => Number(row.id)))
      } finally {
        block.next = undefined
      }
    })()
    await block.next
  }
}

const takeIds = CompiledQuery.raw(
  `select nextval(pg_get_serial_sequence('orders', 'id')) as id from generate_series(1, ${ID_BLOCK})`,
)

/**
 * Orders in one PostgreSQL statement, one commit for all: the function place_orders
 * (migration 0012_order_functions) over arrays, one element an order, taken in turn
 * (db/turn-batch.ts). For each: the guarded debit, then, unless it is refused, the
 * order (the row as JSON, typed by the table), the wallet line (named in the user's language,
 * one name per language given) and the key with the reply, whose balance is written from the
 * debit's: the reply is the first call's JSON up to `"balance":`, then the new balance as an
 * exact decimal. A repeat parses the stored reply, which reads that decimal as the same double
 * fromMicros made of it (the nearest to the exact value), so it answers the very bytes the
 * first call sent, even past 15 digits (test in routes/orders.test.ts). Each order's id is
 * taken beforehand (nextOrderId), so its key names it. Parsed and planned once per connection
 * (db/named-statements.ts). Needs PostgreSQL 13 or later (trim_scale).
 */
const placeStatement = `select n, balance, claim_stock(($9::bigint[])[n], ($5::text[])[n]) as stocked
  from place_orders($1::bigint[], $2::bigint[], $3::text[], $4::jsonb[], $5::text[], $6::text[],
    $7::text[], $8::text[], $9::bigint[], $10::jsonb)`
nameStatement(placeStatement)

const UNIQUE_VIOLATION = '23505'
const DEADLOCK = '40P01'

/** One order for the statement above: its parameters, in their order. */
interface StatementOrder {
  total: string
  userId: number
  currency: CurrencyCode
  /** The order row as JSON. */
  row: string
  /** The wallet line's name in each language, as JSON. */
  names: string
  at: string
  key: string | null
  hash: string
  /** The reply up to its balance. */
  head: string
  orderId: number
}

type StatementOutcome =
  | { kind: 'placed'; balance: bigint; stocked: boolean }
  | { kind: 'refused' }
  | { kind: 'key-taken' }
  | { kind: 'failed'; error: unknown }

/**
 * PostgreSQL's errors that undo the statement whole and say nothing of the other orders in
 * it: a constraint or a value refused, a deadlock. After any other (a lost connection), the
 * commit may have happened: running the orders again could place them twice.
 */
const undoneWhole = (code: unknown) =>
  typeof code === 'string' && (code.startsWith('22') || code.startsWith('23') || code === DEADLOCK)

interface PlaceRow {
  n: number
  balance: bigint
  stocked: boolean
}

/**
 * The orders that were debited: their place in `orders` (from 1), the new balance, and whether
 * the stock completed it.
 */
async function runPlace(db: Kysely<Database>, orders: StatementOrder[]) {
  const column = <K extends keyof StatementOrder>(k: K) => orders.map((o) => o[k])
  const { rows } = await db.executeQuery<PlaceRow>(
    CompiledQuery.raw(placeStatement, [
      column('total'),
      column('userId'),
      column('currency'),
      column('names'),
      column('at'),
      column('key'),
      column('hash'),
      column('head'),
      column('orderId'),
      `[${column('row').join(',')}]`,
    ]),
  )
  return rows
}

async function placeOne(db: Kysely<Database>, o: StatementOrder): Promise<StatementOutcome> {
  try {
    const [debited] = await runPlace(db, [o])
    return debited
      ? { kind: 'placed', balance: debited.balance, stocked: debited.stocked }
      : { kind: 'refused' }
  } catch (err) {
    const { code, constraint } = err as { code?: unknown; constraint?: unknown }
    // The key is an earlier call's: nothing of this statement happened.
    if (code === UNIQUE_VIOLATION && constraint === 'idempotency_keys_pk')
      return { kind: 'key-taken' }
    throw err
  }
}

async function placeMany(
  db: Kysely<Database>,
  orders: StatementOrder[],
): Promise<StatementOutcome[]> {
  if (orders.length === 1) return [await placeOne(db, orders[0]!)]
  // By wallet, so that two statements (of two server processes) lock wallets in one order and
  // cannot deadlock; a wallet's orders keep the order they came in, each debited from the
  // balance the one before it left.
  const sorted = orders
    .map((order, i) => ({ order, i }))
    .sort((a, b) => a.order.userId - b.order.userId)
  let rows: PlaceRow[]
  try {
    rows = await runPlace(
      db,
      sorted.map((s) => s.order),
    )
  } catch (err) {
    // Nothing of the statement happened: one order's key was taken, one order was refused by
    // a constraint (or, should the wallets' locks ever cross, a deadlock). Each order then
    // runs alone and gets its own answer, or its own error.
    if (!undoneWhole((err as { code?: unknown }).code)) throw err
    return Promise.all(
      orders.map((o) =>
        placeOne(db, o).catch((error: unknown): StatementOutcome => ({ kind: 'failed', error })),
      ),
    )
  }
  const outcomes: StatementOutcome[] = orders.map(() => ({ kind: 'refused' }))
  for (const row of rows)
    outcomes[sorted[row.n - 1]!.i] = { kind: 'placed', balance: row.balance, stocked: row.stocked }
  return outcomes
}

/**
 * The orders of a moment, one statement for all, one run at a time: the orders that come in
 * while it runs go together in the next (db/turn-batch.ts), several of one wallet included.
 */
const orderBatches = new WeakMap<Kysely<Database>, TurnBatch<StatementOrder, StatementOutcome>>()

function placeInBatch(db: Kysely<Database>, order: StatementOrder): Promise<StatementOutcome> {
  let batch = orderBatches.get(db)
  if (!batch) {
    batch = new TurnBatch((orders) => placeMany(db, orders), { maxRuns: 1 })
    orderBatches.set(db, batch)
  }
  return batch.add(order)
}

export const placeInOneStatement: Placement = async (
  db,
  user,
  order,
  { key, requestHash: hash, wire, at },
) => {
  const placed: OrderRow = { id: await nextOrderId(db), ...orderValues(user, order, at) }
  const names = Object.fromEntries(LOCALES.map((locale) => [locale, debitLineName(locale, placed)]))
  // The reply without its balance, which only the debit knows: `{"message":…,"data":…,"balance":`.
  const message = t(wire.locale, 'order.placed')
  const data = orderWire(placed, user, wire)
  const head = JSON.stringify({ message, data })
  const outcome = await placeInBatch(db, {
    total: order.totalPrice.toString(),
    userId: user.id,
    currency: order.currency,
    row: JSON.stringify(placed, (_, value: unknown) =>
      typeof value === 'bigint' ? value.toString() : value,
    ),
    names: JSON.stringify(names),
    at,
    key: key ?? null,
    hash,
    head: `${head.slice(0, -1)},"balance":`,
    orderId: placed.id,
  })
  if (outcome.kind === 'failed') throw outcome.error
  if (outcome.kind === 'key-taken') throw new KeyTaken()
  if (outcome.kind === 'refused') throw await debitRefused(db, user, order)
  const reply: PlaceOrderReply = { message, data, balance: fromMicros(outcome.balance) }
  const { stocked } = outcome
  return {
    placed: true,
    reply,
    order: stocked ? { ...placed, status: 'COMPLETED', updated_at: at } : placed,
    stocked,
  }
}
