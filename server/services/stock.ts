import { createHmac } from 'node:crypto'
import { parse } from 'csv-parse/sync'
import { CompiledQuery, PostgresAdapter, sql, type ExpressionBuilder, type Kysely } from 'kysely'
import type { Database, OrderRow } from '../db/schema'
import { prepared } from '../db/prepared'
import type { Logger } from '../log'
import { seal, serverKey, unseal } from './api-tokens'
import { dayOf } from './dates'

/*
 * The code stock (docs/api.md, Code stock): gift-card and top-up codes bought in bulk, handed
 * out from stock in the transaction that places an order (services/order-ledger.ts). A code is
 * a secret: it is kept sealed as the API tokens are (AES-256-GCM under a key derived from
 * TOKEN_SECRET), and found by an HMAC of its canonical form, which is UNIQUE in the table, so
 * the same code is never kept twice whatever imports run at once. It is shown in clear only to
 * the order's owner (their order) and to the operator (the CLI).
 */

const SEAL_INFO = 'wallet-store stock code v1'
const HASH_INFO = 'wallet-store stock code hash v1'

/** A code's row is part of what its seal authenticates: a sealed code moved to another package does not open. */
const associated = (packageId: number) => `stock:${packageId}`

const sealKey = (db: Kysely<Database>, secret: string | undefined) =>
  serverKey(db, secret, SEAL_INFO)

/**
 * The form two codes are compared in: Unicode-normalised (NFKC), upper case, without spaces
 * or dashes, so `abcd-efgh 1234` and `ABCDEFGH1234` are one code.
 */
export function canonicalCode(code: string): string {
  return code
    .normalize('NFKC')
    .replace(/[\s\-‐-―−]/g, '')
    .toUpperCase()
}

async function hasher(db: Kysely<Database>, secret: string | undefined) {
  const key = await serverKey(db, secret, HASH_INFO)
  return (code: string) => createHmac('sha256', key).update(canonicalCode(code)).digest('hex')
}

// ---- importing ------------------------------------------------------------------------------

/** A line of a codes file, numbered from 1. */
export interface CodeLine {
  line: number
  code: string
  expiresOn: string | null
}

export interface CodesFile {
  codes: CodeLine[]
  /** Lines that are not a code: a bad expiry date, too many columns, a code too long. */
  invalid: { line: number; reason: string }[]
}

/** Longest code kept; gift-card codes and PINs are far shorter. */
export const CODE_MAX = 200

/**
 * Reads a codes file: CSV (a code, then optionally its last day as YYYY-MM-DD), which covers
 * one code per line; a first line `code[,expiry]` is a header. Parsed with csv-parse, so a
 * quoted code may hold a comma.
 */
export function readCodesFile(text: string): CodesFile {
  const records = parse(text.replace(/^\uFEFF/, ''), {
    relax_column_count: true,
    skip_empty_lines: true,
    trim: true,
    info: true,
  }) as unknown as { record: string[]; info: { lines: number } }[]
  const codes: CodeLine[] = []
  const invalid: CodesFile['invalid'] = []
  records.forEach(({ record, info }, index) => {
    const [code = '', expiry = '', ...rest] = record
    const line = info.lines
    if (index === 0 && /^codes?$/i.test(code)) return
    if (code === '') return invalid.push({ line, reason: 'no code' })
    if (rest.some((cell) => cell !== ''))
      return invalid.push({ line, reason: 'more than two columns (code, expiry)' })
    if (code.length > CODE_MAX)
      return invalid.push({ line, reason: `a code is at most ${CODE_MAX} characters` })
    const expiresOn = expiry === '' ? null : dayOf(expiry)
    if (expiresOn === undefined)
      return invalid.push({
        line,
        reason: `expiry "${expiry.slice(0, 40)}" is not a date like 2027-01-31`,
      })
    codes.push({ line, code, expiresOn })
  })
  return { codes, invalid }
}

export interface ImportResult {
  imported: number
  /** A later line with a code already on an earlier line of the file. */
  repeated: { line: number; code: string; firstLine: number }[]
  /** Codes the stock already holds (this package's or another's). */
  inStock: { line: number; code: string }[]
}

/** Rows a statement inserts at most (SQLite's parameter limit is far above 5 × this). */
const IMPORT_CHUNK = 500

/**
 * Adds a file's codes to a package's stock. A code the file repeats, or that the stock already
 * holds, is refused and reported; the others are imported. The stock's unique hash is what
 * refuses a kept code, so two imports at once cannot both add it.
 */
export async function importCodes(
  db: Kysely<Database>,
  secret: string | undefined,
  packageId: number,
  codes: CodeLine[],
  now: Date,
): Promise<ImportResult> {
  const [key, hash] = await Promise.all([sealKey(db, secret), hasher(db, secret)])
  const first = new Map<string, number>()
  const repeated: ImportResult['repeated'] = []
  const fresh: (CodeLine & { hash: string })[] = []
  for (const line of codes) {
    const h = hash(line.code)
    const earlier = first.get(h)
    if (earlier !== undefined)
      repeated.push({ line: line.line, code: line.code, firstLine: earlier })
    else {
      first.set(h, line.line)
      fresh.push({ ...line, hash: h })
    }
  }
  const at = now.toISOString()
  const kept = new Set<string>()
  for (let i = 0; i < fresh.length; i += IMPORT_CHUNK) {
    const rows = await db
      .insertInto('stock_codes')
      .values(
        fresh.slice(i, i + IMPORT_CHUNK).map((c) => ({
          package_id: packageId,
          code_sealed: seal(key, associated(packageId), c.code),
          code_hash: c.hash,
          expires_on: c.expiresOn,
          created_at: at,
        })),
      )
      .onConflict((oc) => oc.column('code_hash').doNothing())
      .returning('code_hash')
      .execute()
    for (const row of rows) kept.add(row.code_hash)
  }
  // A package with stock has its settings row; new codes make it worth a new low-stock notice.
  await db
    .insertInto('stock_settings')
    .values({ package_id: packageId, low_at: null, low_noticed_at: null })
    .onConflict((oc) => oc.column('package_id').doUpdateSet({ low_noticed_at: null }))
    .execute()
  const inStock = fresh
    .filter((c) => !kept.has(c.hash))
    .map((c) => ({ line: c.line, code: c.code }))
  return { imported: kept.size, repeated, inStock }
}

// ---- the operator's view --------------------------------------------------------------------

export interface StockCount {
  package_id: number
  package: string | null
  available: number
  delivered: number
  expired: number
  withdrawn: number
  low_at: number
  low: boolean
}

/** Each package with codes: how many can be delivered, were, expired unsold, were withdrawn. */
export async function stockCounts(
  db: Kysely<Database>,
  { now, defaultLowAt }: { now: Date; defaultLowAt: number },
): Promise<StockCount[]> {
  const today = now.toISOString().slice(0, 10)
  const open = sql<boolean>`order_id is null and withdrawn_at is null`
  const rows = await db
    .selectFrom('stock_codes')
    .leftJoin('packages', 'packages.id', 'stock_codes.package_id')
    .leftJoin('stock_settings', 'stock_settings.package_id', 'stock_codes.package_id')
    .select((eb) => [
      'stock_codes.package_id',
      eb.fn.max('packages.name_en').as('package'),
      eb.fn.max('stock_settings.low_at').as('low_at'),
      sql<number>`count(case when ${open} and (expires_on is null or expires_on >= ${today}) then 1 end)`.as(
        'available',
      ),
      sql<number>`count(case when ${open} and expires_on < ${today} then 1 end)`.as('expired'),
      sql<number>`count(order_id)`.as('delivered'),
      sql<number>`count(withdrawn_at)`.as('withdrawn'),
    ])
    .groupBy('stock_codes.package_id')
    .orderBy('stock_codes.package_id')
    .execute()
  return rows.map((r) => {
    const lowAt = r.low_at === null ? defaultLowAt : Number(r.low_at)
    const available = Number(r.available)
    return {
      package_id: Number(r.package_id),
      package: r.package,
      available,
      delivered: Number(r.delivered),
      expired: Number(r.expired),
      withdrawn: Number(r.withdrawn),
      low_at: lowAt,
      low: available <= lowAt,
    }
  })
}

/** A package's own low-stock threshold (null: STOCK_LOW_AT's); a notice may be said again. */
export async function setLowAt(db: Kysely<Database>, packageId: number, lowAt: number | null) {
  await db
    .insertInto('stock_settings')
    .values({ package_id: packageId, low_at: lowAt, low_noticed_at: null })
    .onConflict((oc) =>
      oc.column('package_id').doUpdateSet({ low_at: lowAt, low_noticed_at: null }),
    )
    .execute()
}

export type Withdrawal = { count: number } | { code: string }

export type WithdrawResult =
  { withdrawn: string[] } | { withdrawn: []; reason: 'unknown' | 'delivered' | 'withdrawn' }

/**
 * Takes codes out of a package's stock for good: the newest `count` available ones, or one
 * code. A withdrawn code is never delivered (the claim reads only codes that are not, and the
 * table's CHECK refuses both). Returns the codes, in clear, for the operator.
 */
export async function withdrawCodes(
  db: Kysely<Database>,
  secret: string | undefined,
  packageId: number,
  what: Withdrawal,
  now: Date,
): Promise<WithdrawResult> {
  const at = now.toISOString()
  let base = db
    .updateTable('stock_codes')
    .set({ withdrawn_at: at })
    .where('package_id', '=', packageId)
    .where('order_id', 'is', null)
    .where('withdrawn_at', 'is', null)
  if ('code' in what) {
    const codeHash = (await hasher(db, secret))(what.code)
    const rows = await base
      .where('code_hash', '=', codeHash)
      .returning(['package_id', 'code_sealed'])
      .execute()
    if (rows.length > 0) return { withdrawn: await openCodes(db, secret, rows) }
    const found = await db
      .selectFrom('stock_codes')
      .select(['order_id', 'package_id'])
      .where('code_hash', '=', codeHash)
      .executeTakeFirst()
    const reason =
      !found || found.package_id !== packageId
        ? 'unknown'
        : found.order_id !== null
          ? 'delivered'
          : 'withdrawn'
    return { withdrawn: [], reason }
  }
  base = base.where('id', 'in', (eb) =>
    eb
      .selectFrom('stock_codes')
      .select('id')
      .where('package_id', '=', packageId)
      .where('order_id', 'is', null)
      .where('withdrawn_at', 'is', null)
      .orderBy('id', 'desc')
      .limit(what.count),
  )
  const rows = await base.returning(['package_id', 'code_sealed']).execute()
  return { withdrawn: await openCodes(db, secret, rows) }
}

async function openCodes(
  db: Kysely<Database>,
  secret: string | undefined,
  rows: { package_id: number; code_sealed: string }[],
): Promise<string[]> {
  const key = await sealKey(db, secret)
  return rows.map(
    (r) =>
      unseal(key, associated(Number(r.package_id)), r.code_sealed) ?? '(sealed under another key)',
  )
}

// ---- delivering -----------------------------------------------------------------------------

/**
 * Gives an order its codes (SQLite): the first `skip + 1` available codes of the package, in
 * the order they were imported, or none when it has fewer. The subquery finds the last code
 * the order needs (`offset skip`); the update takes every available code up to it. A scalar
 * subquery rather than `id in (select ... limit n)`: SQLite builds a temporary table for the
 * latter on every run, which made this statement cost more than the order's insert although
 * most packages have no stock (docs/performance.md, Orders).
 */
const claimNext = prepared(
  (db, a: { order_id: number; at: string; package_id: number; day: string; skip: number }) => {
    const available = (eb: ExpressionBuilder<Database, 'stock_codes'>) =>
      eb.and([
        eb('package_id', '=', a.package_id),
        eb('order_id', 'is', null),
        eb('withdrawn_at', 'is', null),
        eb.or([eb('expires_on', 'is', null), eb('expires_on', '>=', a.day)]),
      ])
    return db
      .updateTable('stock_codes')
      .set({ order_id: a.order_id, delivered_at: a.at })
      .where(available)
      .where('id', '<=', (eb) =>
        eb
          .selectFrom('stock_codes')
          .select('id')
          .where(available)
          .orderBy('id')
          .limit(1)
          .offset(a.skip),
      )
      .returning('expires_on')
  },
)

const completeStocked = prepared((db, a: { id: number; at: string; expiry_date: string | null }) =>
  db
    .updateTable('orders')
    .set({ status: 'COMPLETED', updated_at: a.at, expiry_date: a.expiry_date })
    .where('id', '=', a.id),
)

/**
 * In the transaction that placed `order`: its package's next available codes for its quantity,
 * and the order COMPLETED with them; with fewer codes than that, nothing (the order goes on as
 * without stock). Returns the expiry the order got, or undefined when nothing was claimed. On
 * PostgreSQL this is claim_stock (migration 0019_code_stock), which skips codes that another
 * transaction holds rather than waiting for them; the one-statement placement calls it too.
 */
export async function claimStock(
  trx: Kysely<Database>,
  order: Pick<OrderRow, 'id' | 'package_id' | 'quantity'>,
  at: string,
): Promise<{ expiryDate: string | null } | undefined> {
  if (order.package_id === null || order.quantity < 1) return undefined
  if (trx.getExecutor().adapter instanceof PostgresAdapter) {
    const { rows } = await trx.executeQuery<{ stocked: boolean }>(
      CompiledQuery.raw('select claim_stock($1, $2) as stocked', [order.id, at]),
    )
    if (!rows[0]?.stocked) return undefined
    const row = await trx
      .selectFrom('orders')
      .select('expiry_date')
      .where('id', '=', order.id)
      .executeTakeFirstOrThrow()
    return { expiryDate: row.expiry_date }
  }
  const { rows } = await claimNext(trx, {
    order_id: order.id,
    at,
    package_id: order.package_id,
    day: at.slice(0, 10),
    skip: order.quantity - 1,
  })
  // All the quantity, or nothing when the stock is short of it.
  if (rows.length === 0) return undefined
  const days = rows.map((r) => r.expires_on).filter((d) => d !== null)
  const expiryDate = days.length > 0 ? days.sort()[0]! : null
  await completeStocked(trx, { id: order.id, at, expiry_date: expiryDate })
  return { expiryDate }
}

export interface Delivered {
  codes: string[]
  expiryDate: string | null
}

/** The stock codes delivered to these orders, in clear, by order id (the owner's or operator's read). */
export async function deliveredCodes(
  db: Kysely<Database>,
  secret: string | undefined,
  orderIds: number[],
): Promise<Map<number, Delivered>> {
  const found = new Map<number, Delivered>()
  if (orderIds.length === 0) return found
  const rows = await db
    .selectFrom('stock_codes')
    .select(['order_id', 'package_id', 'code_sealed', 'expires_on'])
    .where('order_id', 'in', orderIds)
    .orderBy('id')
    .execute()
  if (rows.length === 0) return found
  const codes = await openCodes(db, secret, rows)
  rows.forEach((row, i) => {
    const id = Number(row.order_id)
    let entry = found.get(id)
    if (!entry) found.set(id, (entry = { codes: [], expiryDate: null }))
    entry.codes.push(codes[i]!)
    if (row.expires_on !== null && (entry.expiryDate === null || row.expires_on < entry.expiryDate))
      entry.expiryDate = row.expires_on
  })
  return found
}

/**
 * Orders as their owner (or the operator) reads them: a COMPLETED order served from stock gets
 * its codes in `item_codes`, where the operator's `orders:complete` puts the codes it is given.
 * One query for a page of orders, none when no order could have stock codes.
 */
export async function withStockCodes<
  T extends Pick<OrderRow, 'id' | 'status' | 'package_id' | 'item_codes'>,
>(db: Kysely<Database>, secret: string | undefined, orders: T[]): Promise<T[]> {
  const candidates = orders.filter(
    (o) => o.status === 'COMPLETED' && o.package_id !== null && o.item_codes === '[]',
  )
  const delivered = await deliveredCodes(
    db,
    secret,
    candidates.map((o) => o.id),
  )
  if (delivered.size === 0) return orders
  return orders.map((o) => {
    const found = delivered.get(o.id)
    return found ? { ...o, item_codes: itemCodesJson(found.codes) } : o
  })
}

/** `item_codes` as orders keep and send it: a JSON list of `{code}`. */
export const itemCodesJson = (codes: string[]) => JSON.stringify(codes.map((code) => ({ code })))

// ---- the low-stock notice -------------------------------------------------------------------

/**
 * Tells the operator once a package's available stock is down to its threshold (its own, or
 * STOCK_LOW_AT), after a delivery: a structured warning in the server's log (the store has no
 * operator address to write to), said once until an import or a new threshold: the conditional
 * update of the package's `low_noticed_at` lets one caller through, however many orders finish
 * at once.
 */
export async function noticeLowStock(
  db: Kysely<Database>,
  logger: Logger | undefined,
  { packageId, now, defaultLowAt }: { packageId: number; now: Date; defaultLowAt: number },
): Promise<void> {
  const today = now.toISOString().slice(0, 10)
  const [count, setting] = await Promise.all([
    db
      .selectFrom('stock_codes')
      .select((eb) => eb.fn.countAll<number>().as('available'))
      .where('package_id', '=', packageId)
      .where('order_id', 'is', null)
      .where('withdrawn_at', 'is', null)
      .where((eb) => eb.or([eb('expires_on', 'is', null), eb('expires_on', '>=', today)]))
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('stock_settings')
      .select(['low_at', 'low_noticed_at'])
      .where('package_id', '=', packageId)
      .executeTakeFirst(),
  ])
  const available = Number(count.available)
  const lowAt = setting?.low_at ?? defaultLowAt
  if (!setting || setting.low_noticed_at !== null || available > lowAt) return
  const told = await db
    .updateTable('stock_settings')
    .set({ low_noticed_at: now.toISOString() })
    .where('package_id', '=', packageId)
    .where('low_noticed_at', 'is', null)
    .executeTakeFirst()
  if (Number(told.numUpdatedRows) > 0)
    logger?.warn('code stock low', { package: packageId, available, low_at: lowAt })
}

/** A package of the catalogue by id, for the operator's commands: its names, or undefined. */
export function findStockPackage(db: Kysely<Database>, id: number) {
  return db
    .selectFrom('packages')
    .innerJoin('products', 'products.id', 'packages.product_id')
    .select(['packages.id', 'packages.name_en', 'products.name_en as product_name_en'])
    .where('packages.id', '=', id)
    .executeTakeFirst()
}
