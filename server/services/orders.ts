import { type Kysely } from 'kysely'
import { createHash } from 'node:crypto'
import type { Locale } from '../../src/contract/common'
import { OrderRequestSchema, type OrderForm } from '../../src/contract/orders'
import {
  chosenService,
  firstOrderProblem,
  formFields,
  isCrypto,
  isFreeFire,
  needsPlayerNumber,
  playerMustBeVerified,
} from '../../src/domain/ordering'
import { convertFromUsd, orderTotal, unitPrice } from '../../src/domain/pricing'
import type { Provider } from '../adapters/provider'
import { ApiError, parseFields, ValidationError } from '../core/errors'
import { idParam } from '../core/paging'
import type { Config } from '../config'
import { inBackground } from '../db/background'
import { INT64_MAX } from '../db/bigint'
import { inTransaction } from '../db/transaction'
import type { Database, UserRow } from '../db/schema'
import { t, type MessageId } from '../i18n'
import { errorFields, type Logger } from '../log'
import { catalogueRowsFromDb, type RowSource } from './catalogue-rows'
import type { PlaceOrderReply } from './order-ledger'
import { placeOrder, replayed, type PreparedOrder } from './order-ledger'
import { ORDER_FIELD_LABELS, type WireOptions } from './order-queries'
import { handOver, notifyCompleted } from './order-status'
import { deliveredCodes, itemCodesJson, noticeLowStock } from './stock'
import { wakeUpstream } from './upstream'
import { isUpstreamPackage } from './upstream-panels'
import {
  isProductAvailable,
  parseRequirements,
  priceInput,
  purchaseFields,
  purchaseTerms,
} from './purchase-terms'

/*
 * Checkout (docs/api.md, Orders): the order's intake and pricing, then the ledger
 * (order-ledger.ts) pays for it and records it; order-queries.ts reads orders. The price is
 * always computed here, with
 * the one pricing rule (src/domain/pricing.ts), from the catalogue as it is now, and the form
 * is checked with the one set of order rules (src/domain/ordering.ts); nothing the client
 * sends about money is read.
 */

/** Idempotency-Key: what the header may hold. */
export const IDEMPOTENCY_KEY_MAX = 100

/** The form as read: trimmed text fields, without the values a form drops when empty. */
export type OrderFields = OrderForm['fields']
export type { OrderForm }

function refuse(field: string, id: MessageId, values?: Record<string, unknown>): never {
  throw new ValidationError([{ field, id, values }], ORDER_FIELD_LABELS)
}

/** Reads an order form with the contract's schema, as the order call's validator does. */
export const orderForm = (raw: unknown): OrderForm =>
  parseFields(OrderRequestSchema, raw, ORDER_FIELD_LABELS)

/**
 * What makes two order calls "the same request" for an Idempotency-Key: the fields as read
 * (`local` is only the reply's language) and the player name from the query.
 */
export function requestHash(fields: OrderFields, playerNameQuery: string | undefined): string {
  const normalised: Record<string, string> = { ...fields }
  const query = playerNameQuery?.trim()
  if (query) normalised['?player_name'] = query
  const sorted = Object.keys(normalised)
    .sort()
    .map((k) => [k, normalised[k]])
  return createHash('sha256').update(JSON.stringify(sorted)).digest('hex')
}

// ---- preparing ------------------------------------------------------------------------------

export interface PrepareOptions {
  locale: Locale
  /** LBP per USD: catalogue prices are USD, an LBP wallet pays the converted amount. */
  lbpRate: number
  playerNameQuery?: string
  /** Where the product and package come from: by default the database, each time. */
  rows?: RowSource
}

async function findItem(db: Kysely<Database>, fields: OrderFields, rows: RowSource) {
  if (fields.package_id !== undefined) {
    const id = idParam(fields.package_id)
    const pkg = id === undefined ? undefined : await rows.package(db, id)
    if (!pkg) throw new ApiError(404, 'catalogue.package_not_found')
    const product = await rows.product(db, pkg.product_id)
    if (!product) throw new Error(`package ${pkg.id} has no product ${pkg.product_id}`)
    return { product, pkg }
  }
  if (fields.product_id !== undefined) {
    const id = idParam(fields.product_id)
    const product = id === undefined ? undefined : await rows.product(db, id)
    if (!product) throw new ApiError(404, 'catalogue.product_not_found')
    return { product, pkg: undefined }
  }
  return refuse('product_id', 'order.item.required')
}

/**
 * Checks an order form with the order rules and prices it. Throws the first problem: ApiError
 * 404 for an item that does not exist, ValidationError (422) otherwise.
 */
export async function prepareOrder(
  db: Kysely<Database>,
  user: UserRow,
  { fields, quantityName }: OrderForm,
  { locale, lbpRate, playerNameQuery, rows = catalogueRowsFromDb }: PrepareOptions,
): Promise<PreparedOrder> {
  const { product, pkg } = await findItem(db, fields, rows)
  // An entry that merges to another product is a link to that product's page, not an item.
  if (!isProductAvailable(product) || (pkg && (pkg.is_available !== 1 || pkg.merge_to !== null)))
    refuse(pkg ? 'package_id' : 'product_id', 'order.unavailable')

  const services = pkg
    ? []
    : await db
        .selectFrom('product_additional_services')
        .selectAll()
        .where('product_id', '=', product.id)
        .orderBy('position')
        .orderBy('id')
        .execute()
  const terms = purchaseTerms(product, pkg, services, locale)

  // The player this user looked up for this product, when the number must be a verified one.
  const playerNumber = needsPlayerNumber(terms) ? (fields.player_number ?? null) : null
  const verified =
    playerMustBeVerified(terms) && playerNumber !== null
      ? await db
          .selectFrom('player_numbers')
          .select('player_name')
          .where('user_id', '=', user.id)
          .where('product_id', '=', product.id)
          .where('player_number', '=', playerNumber)
          .executeTakeFirst()
      : undefined

  const problem = firstOrderProblem(terms, fields, { playerVerified: verified !== undefined })
  if (problem) {
    const label =
      problem.values?.label ??
      t(locale, ORDER_FIELD_LABELS[problem.field]?.label ?? 'field.product_id')
    refuse(problem.field === 'quantity' ? quantityName : problem.field, problem.id, {
      ...problem.values,
      label,
    })
  }

  const quantity = isFreeFire(terms) ? 1 : Number(fields.quantity ?? '1')
  const service = chosenService(services, fields.service_type)
  const item = priceInput(product, pkg, service)
  const crypto = isCrypto(terms)
  const total = orderTotal(item, user.type, {
    quantity,
    crypto,
    currency: user.currency,
    lbpRate,
  })
  if (total > INT64_MAX) refuse(quantityName, 'order.total.too_large')

  const kept: OrderFields = {}
  for (const name of formFields(terms)) if (fields[name] !== undefined) kept[name] = fields[name]
  const requirements = parseRequirements(purchaseFields(product, pkg).requirements).map((r) => ({
    ...r,
    value: kept[r.name] ?? '',
  }))
  return {
    product,
    pkg,
    service,
    quantity,
    unitPrice: convertFromUsd(
      unitPrice(item, user.type, { crypto, quantity }),
      lbpRate,
      user.currency,
    ),
    totalPrice: total,
    currency: user.currency,
    playerNumber,
    playerName:
      playerNumber === null
        ? null
        : (verified?.player_name ?? kept.player_name ?? (playerNameQuery?.trim() || null)),
    requirements,
    kept,
  }
}

export interface CheckoutRequest {
  /** The form, read with the contract's schema. */
  form: OrderForm
  /** `?player_name=`, as the storefront sends the looked-up name. */
  playerNameQuery: string | undefined
  /** Repeats of a call with the same key get the first reply; without one, each call orders. */
  idempotencyKey: string | undefined
}

export interface CheckoutContext {
  db: Kysely<Database>
  provider: Provider
  lbpRate: number
  wire: WireOptions
  now: Date
  logger?: Logger
  /** The catalogue rows kept per content version (services/catalogue-rows.ts). */
  rows?: RowSource
  /** The code stock's key (TOKEN_SECRET) and default low-stock threshold (STOCK_LOW_AT). */
  stock: { secret: string | undefined; lowAt: number }
}

export const stockOptions = (config: Pick<Config, 'tokenSecret' | 'stockLowAt'>) => ({
  secret: config.tokenSecret,
  lowAt: config.stockLowAt,
})

/**
 * A reply with the order's codes from the stock, when it has some: as the order's page shows
 * them (`item_codes`), to the customer who placed it. The kept reply (Idempotency-Key) has no
 * codes, which are kept sealed only; a repeat gets them here again.
 */
async function withStock(
  { db, stock }: CheckoutContext,
  reply: PlaceOrderReply,
): Promise<PlaceOrderReply> {
  const { data } = reply
  if (data.package_id == null || data.item_codes !== '[]' || data.status === 'CANCELED')
    return reply
  const found = (await deliveredCodes(db, stock.secret, [data.id])).get(data.id)
  if (!found) return reply
  return {
    ...reply,
    data: {
      ...data,
      status: 'COMPLETED',
      item_codes: itemCodesJson(found.codes),
      expiry_date: found.expiryDate,
    },
  }
}

/**
 * POST automated/get/packages: reads the form, answers a repeated key with its first reply,
 * checks and prices the order, pays for it, and hands it to the provider once it is committed.
 */
export async function checkout(
  ctx: CheckoutContext,
  user: UserRow,
  request: CheckoutRequest,
): Promise<PlaceOrderReply> {
  const { db, wire, now } = ctx
  const key = request.idempotencyKey?.trim() || undefined
  if (key !== undefined && key.length > IDEMPOTENCY_KEY_MAX)
    throw new ApiError(400, 'order.idempotency.invalid')
  const { form } = request
  const hash = requestHash(form.fields, request.playerNameQuery)
  let priced: PreparedOrder
  try {
    priced = await prepareOrder(db, user, form, {
      locale: wire.locale,
      lbpRate: ctx.lbpRate,
      playerNameQuery: request.playerNameQuery,
      rows: ctx.rows,
    })
  } catch (err) {
    // A repeat is answered as the first time even if the item can no longer be ordered. The
    // key is looked up only here: for a new order that one more query would be wasted, and a
    // repeat that passes the checks is found by placeOrder, when it claims the key.
    const earlier = key === undefined ? undefined : await replayed(db, user.id, key, hash)
    if (earlier) return withStock(ctx, earlier)
    throw err
  }
  const result = await placeOrder(db, user, priced, { key, requestHash: hash, wire, now })
  if (!result.placed) return withStock(ctx, result.reply)
  if (!result.stocked) {
    // No stock for it: the order goes to its next way of fulfilment, an upstream panel (placed
    // by the background loop, services/upstream.ts) or the provider.
    if (result.upstream ?? (await isUpstreamPackage(db, result.order.package_id))) wakeUpstream(db)
    else
      await handOver(db, ctx.provider, result.order, { now, logger: ctx.logger, recordLater: true })
    return result.reply
  }
  // Completed from the stock in its own transaction; the customer is told once it committed.
  const { order } = result
  await inTransaction(db, (trx) => notifyCompleted(trx, order, user.locale, now))
  if (order.package_id !== null) {
    const lowStock = noticeLowStock(db, ctx.logger, {
      packageId: order.package_id,
      now,
      defaultLowAt: ctx.stock.lowAt,
    }).catch((err: unknown) => ctx.logger?.error('low-stock check failed', errorFields(err)))
    inBackground(db, lowStock)
  }
  return withStock(ctx, result.reply)
}
