import { CompiledQuery, PostgresAdapter, type Insertable, type Kysely } from 'kysely'
import type * as v from 'valibot'
import type { PlaceOrderReplySchema } from '../../src/contract/orders'
import { fromMicros } from '../../src/domain/money'
import { ValidationError } from '../core/errors'
import { groupedTransaction } from '../db/group-commit'
import { nameStatement } from '../db/named-statements'
import { prepared } from '../db/prepared'
import type {
  CurrencyCode,
  Database,
  IdempotencyKeyTable,
  LocaleCode,
  OrderRow,
  OrderTable,
  UserRow,
} from '../db/schema'
import type { AdditionalServiceRow, PackageRow, ProductRow } from '../db/schema-catalogue'
import { TurnBatch } from '../db/turn-batch'
import { LOCALES, t } from '../i18n'
import { metrics } from '../metrics'
import { generatedImageUrl } from './catalogue-images'
import { itemName } from './item-name'
import { ORDER_FIELD_LABELS, orderWire, type WireOptions } from './order-queries'
import { type OrderFields } from './orders'
import { type StoredAnswer } from './purchase-terms'
import { claimStock } from './stock'
import { addWalletLog } from './wallet'

/*
 * The order ledger: an order paid and recorded once, with its debit, its wallet line, its codes
 * when the package has them in stock (services/stock.ts) and its Idempotency-Key, in one
 * transaction (SQLite, several orders a commit) or one statement (PostgreSQL, several orders a
 * call of place_orders, each then given its codes by claim_stock); a repeated key is answered
 * with its first reply.
 */

export type PlaceOrderReply = v.InferInput<typeof PlaceOrderReplySchema>

/** An order ready to be paid: what was checked and priced, in the user's currency. */
export interface PreparedOrder {
  product: ProductRow
  pkg: PackageRow | undefined
  service: AdditionalServiceRow | undefined
  quantity: number
  unitPrice: bigint
  totalPrice: bigint
  currency: UserRow['currency']
  playerNumber: string | null
  playerName: string | null
  /** The item's own fields, with their labels as the catalogue had them. */
  requirements: StoredAnswer[]
  /** Only the fields the item's form has: anything else sent is not kept. */
  kept: OrderFields
}

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
      .returning(['balance', 'locale']),
)
/** Only the id comes back: the row is the values given (as on PostgreSQL's one statement). */
const insertOrder = prepared((db, order: Insertable<OrderTable>) =>
  db.insertInto('orders').values(order).returning('id'),
)

// ---- placing --------------------------------------------------------------------------------

export interface PlaceOptions {
  /** The Idempotency-Key and the hash of the request it came with; none places it as is. */
  key: string | undefined
  requestHash: string
  wire: WireOptions
  now: Date
}

/** The same key is being (or was) used by another call; its reply is read afterwards. */
class KeyTaken extends Error {
  override name = 'KeyTaken'
}

export type PlaceResult =
  /** `stocked`: completed with codes from the stock, in the same transaction. */
  | { placed: true; reply: PlaceOrderReply; order: OrderRow; stocked: boolean }
  | { placed: false; reply: PlaceOrderReply }

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

/** The order's row as it is inserted, every column but the id. */
function orderValues(user: UserRow, order: PreparedOrder, at: string): Omit<OrderRow, 'id'> {
  const { product, pkg, kept } = order
  return {
    user_id: user.id,
    product_id: product.id,
    package_id: pkg?.id ?? null,
    number: product.number,
    product_name_en: product.name_en,
    product_name_ar: product.name_ar,
    package_name_en: pkg?.name_en ?? null,
    package_name_ar: pkg?.name_ar ?? null,
    product_image:
      (pkg ? pkg.image : null) ??
      product.image ??
      generatedImageUrl({ kind: 'product', ...product }),
    product_reference: product.product_reference,
    provider_package_id: pkg?.package_id ?? null,
    quantity: order.quantity,
    unit_price: order.unitPrice,
    total_price: order.totalPrice,
    currency: order.currency,
    status: 'WAITING',
    refuse_reason: null,
    accept_note: null,
    item_codes: '[]',
    expiry_date: null,
    player_name: order.playerName,
    player_number: order.playerNumber,
    service_type: order.service?.type ?? null,
    social_link: kept.social_link ?? null,
    wallet_address: kept.wallet_address ?? null,
    email_or_phone_number: kept.email_or_phone_number ?? null,
    password: kept.password ?? null,
    contact_number: kept.contact_number ?? null,
    requirements: JSON.stringify(order.requirements),
    provider_ref: null,
    created_at: at,
    updated_at: at,
  }
}

/** The wallet history line's name: the user's own record, in their language. */
const debitLineName = (locale: LocaleCode, placed: OrderRow) =>
  t(locale, 'wallet.order_debit', { id: placed.id, item: itemName(placed, locale) })

/** The debit was refused: the balance is short, or the wallet's currency changed. */
class DebitRefused extends Error {
  override name = 'DebitRefused'
  constructor(readonly currencyChanged: boolean) {
    super('debit refused')
  }
}

/** Why the guarded debit moved nothing: too little balance, or a currency switched since. */
async function debitRefused(
  db: Kysely<Database>,
  user: UserRow,
  order: PreparedOrder,
): Promise<DebitRefused> {
  const current = await db
    .selectFrom('users')
    .select('currency')
    .where('id', '=', user.id)
    .executeTakeFirstOrThrow()
  return new DebitRefused(current.currency !== order.currency)
}

function debitRefusal(currencyChanged: boolean): ValidationError {
  return new ValidationError(
    [
      {
        field: 'balance',
        id: currencyChanged ? 'order.currency_changed' : 'order.balance.insufficient',
      },
    ],
    ORDER_FIELD_LABELS,
  )
}

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
    const result =
      !db.isTransaction && isPostgres(db)
        ? await placeInOneStatement(db, user, order, options)
        : await placeInTransaction(db, user, order, options)
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

/** The reply to a placed order; `balance` is the wallet's after the debit. */
function placedReply(placed: OrderRow, user: UserRow, wire: WireOptions, balance: bigint) {
  const reply: PlaceOrderReply = {
    message: t(wire.locale, 'order.placed'),
    data: orderWire(placed, user, wire),
    balance: fromMicros(balance),
  }
  return reply
}

async function placeInTransaction(
  db: Kysely<Database>,
  user: UserRow,
  order: PreparedOrder,
  { key, requestHash: hash, wire, now }: PlaceOptions,
): Promise<PlaceResult> {
  const at = now.toISOString()
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
      name: debitLineName(debited.locale, placed),
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
    return { placed: true as const, reply, order: placed, stocked: stock !== undefined }
  })
}

const isPostgres = (db: Kysely<Database>) => db.getExecutor().adapter instanceof PostgresAdapter

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

async function placeInOneStatement(
  db: Kysely<Database>,
  user: UserRow,
  order: PreparedOrder,
  { key, requestHash: hash, wire, now }: PlaceOptions,
): Promise<PlaceResult> {
  const at = now.toISOString()
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
