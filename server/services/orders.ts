import { createHash } from 'node:crypto'
import type { Insertable, Kysely } from 'kysely'
import type * as v from 'valibot'
import type { Locale } from '../../src/contract/common'
import type { OrderSchema, PlaceOrderReplySchema } from '../../src/contract/orders'
import { fromMicros } from '../../src/domain/money'
import {
  chosenService,
  firstOrderProblem,
  formFields,
  isFreeFire,
  needsPlayerNumber,
  playerMustBeVerified,
} from '../../src/domain/ordering'
import { convertFromUsd, orderTotal, unitPrice } from '../../src/domain/pricing'
import type { Provider } from '../adapters/provider'
import { INT64_MAX } from '../db/bigint'
import { prepared } from '../db/prepared'
import type {
  CurrencyCode,
  Database,
  IdempotencyKeyTable,
  OrderRow,
  OrderStatus,
  OrderTable,
  UserRow,
} from '../db/schema'
import type { AdditionalServiceRow, PackageRow, ProductRow } from '../db/schema-catalogue'
import { inTransaction } from '../db/transaction'
import { ApiError } from '../http/errors'
import { idParam, pageOf, pageRequest, type Page } from '../http/params'
import { ValidationError, type FieldMessages } from '../http/validation'
import { localized, t, type MessageId } from '../i18n'
import type { Logger } from '../log'
import { generatedImageUrl } from './catalogue-images'
import { dayRange, localDateTime } from './dates'
import { itemName } from './item-name'
import { handOver } from './order-status'
import {
  isProductAvailable,
  parseRequirements,
  priceInput,
  purchaseFields,
  purchaseTerms,
  storedAnswers,
  type StoredAnswer,
} from './purchase-terms'
import { addWalletLog } from './wallet'

/*
 * Placing and reading orders (docs/api.md, Orders). The price is always computed here, with
 * the one pricing rule (src/domain/pricing.ts), from the catalogue as it is now, and the form
 * is checked with the one set of order rules (src/domain/ordering.ts); nothing the client
 * sends about money is read.
 */

export type OrderWire = v.InferInput<typeof OrderSchema>
export type PlaceOrderReply = v.InferInput<typeof PlaceOrderReplySchema>

/** Orders per page of GET orders. */
export const ORDERS_PER_PAGE = 10
/** Idempotency-Key: what the header may hold. */
export const IDEMPOTENCY_KEY_MAX = 100

/** Labels of the order form's fields, for the messages that name them. */
export const ORDER_FIELD_LABELS: Record<string, FieldMessages> = {
  product_id: { label: 'field.product_id' },
  package_id: { label: 'field.product_id' },
  quantity: { label: 'field.quantity' },
  player_number: { label: 'field.player_number' },
  player_name: { label: 'field.player_name' },
  email_or_phone_number: { label: 'field.email_or_phone_number' },
  password: { label: 'field.password' },
  contact_number: { label: 'field.contact_number' },
  service_type: { label: 'field.service_type' },
  social_link: { label: 'field.social_link' },
  wallet_address: { label: 'field.wallet_address' },
}

/** The form as sent: text fields only, trimmed, without the values a form drops when empty. */
export type OrderFields = Record<string, string>

export interface OrderForm {
  /** `qty` is read as `quantity`. */
  fields: OrderFields
  /** The name the quantity came under: a problem with it is told under that name. */
  quantityName: 'qty' | 'quantity'
}

const DROPPED = new Set(['', 'null', 'undefined'])

function refuse(field: string, id: MessageId, values?: Record<string, unknown>): never {
  throw new ValidationError([{ field, id, values }], ORDER_FIELD_LABELS)
}

/**
 * Reads the order form: every value must be text (a JSON `true`, list or object is refused,
 * never read as something else); `qty` and `quantity` are one field, and a request that gives
 * both differently is refused rather than read one way for the price and another for the key.
 */
export function orderForm(raw: Record<string, unknown>): OrderForm {
  const fields: OrderFields = {}
  for (const [name, value] of Object.entries(raw)) {
    if (typeof value !== 'string') refuse(name, 'validation.invalid')
    const text = value.trim()
    if (!DROPPED.has(text)) fields[name] = text
  }
  if (fields.qty !== undefined) {
    if (fields.quantity !== undefined && fields.quantity !== fields.qty)
      refuse('quantity', 'validation.invalid')
    fields.quantity = fields.qty
    delete fields.qty
    return { fields, quantityName: 'qty' }
  }
  return { fields, quantityName: 'quantity' }
}

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

export interface PrepareOptions {
  locale: Locale
  /** LBP per USD: catalogue prices are USD, an LBP wallet pays the converted amount. */
  lbpRate: number
  playerNameQuery?: string
}

// The statements every order runs, built once (db/prepared.ts).
const packageById = prepared((db, { id }: { id: number }) =>
  db.selectFrom('packages').selectAll().where('id', '=', id),
)
const productById = prepared((db, { id }: { id: number }) =>
  db.selectFrom('products').selectAll().where('id', '=', id),
)
const claimKey = prepared((db, key: Insertable<IdempotencyKeyTable>) =>
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
const insertOrder = prepared((db, order: Insertable<OrderTable>) =>
  db.insertInto('orders').values(order).returningAll(),
)
const keepReply = prepared(
  (
    db,
    {
      user_id,
      key,
      order_id,
      reply,
    }: { user_id: number; key: string; order_id: number; reply: string },
  ) =>
    db
      .updateTable('idempotency_keys')
      .set({ order_id, reply })
      .where('user_id', '=', user_id)
      .where('key', '=', key),
)

async function findItem(db: Kysely<Database>, fields: OrderFields) {
  if (fields.package_id !== undefined) {
    const id = idParam(fields.package_id)
    const [pkg] = id === undefined ? [] : (await packageById(db, { id })).rows
    if (!pkg) throw new ApiError(404, 'catalogue.package_not_found')
    const [product] = (await productById(db, { id: pkg.product_id })).rows
    if (!product) throw new Error(`package ${pkg.id} has no product ${pkg.product_id}`)
    return { product, pkg }
  }
  if (fields.product_id !== undefined) {
    const id = idParam(fields.product_id)
    const [product] = id === undefined ? [] : (await productById(db, { id })).rows
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
  { locale, lbpRate, playerNameQuery }: PrepareOptions,
): Promise<PreparedOrder> {
  const { product, pkg } = await findItem(db, fields)
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
  const crypto = terms.number === 3 || terms.hasSecondPrice
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

// ---- replies --------------------------------------------------------------------------------

export interface Customer {
  username: string
  phone_number: string
}

export interface WireOptions {
  locale: Locale
  /** The store's time zone, for the date and time fields. */
  timeZone: string
}

/** An order as the storefront reads it, names in the request's language. */
export function orderWire(
  order: OrderRow,
  customer: Customer,
  { locale, timeZone }: WireOptions,
): OrderWire {
  return {
    id: order.id,
    product_id: order.product_id,
    package_id: order.package_id,
    product_image: order.product_image,
    product_name: localized(locale, order.product_name_en, order.product_name_ar),
    package_name:
      order.package_name_en === null
        ? null
        : localized(locale, order.package_name_en, order.package_name_ar),
    quantity: order.quantity,
    unit_price: fromMicros(order.unit_price),
    total_price: fromMicros(order.total_price),
    currency: order.currency,
    status: order.status,
    refuse_reason: order.refuse_reason,
    accept_note: order.accept_note,
    item_codes: order.item_codes,
    expiry_date: order.expiry_date,
    player_name: order.player_name,
    player_number: order.player_number,
    user: { username: customer.username, phone_number: customer.phone_number },
    service_type: order.service_type,
    social_link: order.social_link,
    wallet_address: order.wallet_address,
    email_or_phone_number: order.email_or_phone_number,
    password: order.password,
    contact_number: order.contact_number,
    requirements: storedAnswers(order.requirements).map((answer) => ({
      name: answer.name,
      label: localized(locale, answer.label_en, answer.label_ar),
      value: answer.value,
    })),
    ...localDateTime(order.created_at, timeZone),
    created_at: order.created_at,
  }
}

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
  | { placed: true; reply: PlaceOrderReply; order: OrderRow }
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

/**
 * Pays for and records a prepared order, in one transaction: the key first (a second call
 * with the same key waits on it, then finds it taken and answers with the stored reply), then
 * the conditional debit (no row when the balance is short: nothing else happens), the order,
 * its wallet history line and the reply kept for the key.
 */
export async function placeOrder(
  db: Kysely<Database>,
  user: UserRow,
  order: PreparedOrder,
  { key, requestHash: hash, wire, now }: PlaceOptions,
): Promise<PlaceResult> {
  const at = now.toISOString()
  const total = order.totalPrice
  try {
    return await inTransaction(db, async (trx) => {
      if (key !== undefined) {
        const claimed = await claimKey(trx, {
          user_id: user.id,
          key,
          request_hash: hash,
          order_id: null,
          reply: null,
          created_at: at,
        })
        if (Number(claimed.numAffectedRows ?? 0) === 0) throw new KeyTaken()
      }

      // Priced in this currency: a switch since then must not debit the converted balance.
      const [debited] = (await debit(trx, { id: user.id, total, currency: order.currency })).rows
      if (!debited) {
        const current = await trx
          .selectFrom('users')
          .select('currency')
          .where('id', '=', user.id)
          .executeTakeFirstOrThrow()
        throw new ValidationError(
          [
            {
              field: 'balance',
              id:
                current.currency === order.currency
                  ? 'order.balance.insufficient'
                  : 'order.currency_changed',
            },
          ],
          ORDER_FIELD_LABELS,
        )
      }

      const { product, pkg, kept } = order
      const [placed] = (
        await insertOrder(trx, {
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
          total_price: total,
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
        })
      ).rows
      if (!placed) throw new Error('the order insert returned no row')

      await addWalletLog(trx, {
        userId: user.id,
        status: 'Discounted',
        // The history is the user's own record: in their language, like notifications.
        name: t(debited.locale, 'wallet.order_debit', {
          id: placed.id,
          item: itemName(placed, debited.locale),
        }),
        previousBalance: debited.balance + total,
        value: total,
        currentBalance: debited.balance,
        currency: order.currency,
        now,
      })

      const reply: PlaceOrderReply = {
        message: t(wire.locale, 'order.placed'),
        data: orderWire(placed, user, wire),
        balance: fromMicros(debited.balance),
      }
      if (key !== undefined)
        await keepReply(trx, {
          user_id: user.id,
          key,
          order_id: placed.id,
          reply: JSON.stringify(reply),
        })
      return { placed: true as const, reply, order: placed }
    })
  } catch (err) {
    if (!(err instanceof KeyTaken) || key === undefined) throw err
    const reply = await replayed(db, user.id, key, hash)
    if (!reply) throw new Error(`idempotency key ${key} vanished`, { cause: err })
    return { placed: false, reply }
  }
}

export interface CheckoutRequest {
  /** The form as the body carried it. */
  raw: Record<string, unknown>
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
  const form = orderForm(request.raw)
  const hash = requestHash(form.fields, request.playerNameQuery)
  let priced: PreparedOrder
  try {
    priced = await prepareOrder(db, user, form, {
      locale: wire.locale,
      lbpRate: ctx.lbpRate,
      playerNameQuery: request.playerNameQuery,
    })
  } catch (err) {
    // A repeat is answered as the first time even if the item can no longer be ordered. The
    // key is looked up only here: for a new order that one more query would be wasted, and a
    // repeat that passes the checks is found by placeOrder, when it claims the key.
    const earlier = key === undefined ? undefined : await replayed(db, user.id, key, hash)
    if (earlier) return earlier
    throw err
  }
  const result = await placeOrder(db, user, priced, { key, requestHash: hash, wire, now })
  if (result.placed) await handOver(db, ctx.provider, result.order, { now, logger: ctx.logger })
  return result.reply
}

// ---- reading --------------------------------------------------------------------------------

/** The status filter of the orders page: FAILED shows as WAITING. */
export function statusFilter(status: string | undefined): OrderStatus[] | undefined {
  switch (status?.trim().toUpperCase()) {
    case 'WAITING':
      return ['WAITING', 'FAILED']
    case 'COMPLETED':
      return ['COMPLETED']
    case 'CANCELED':
    case 'CANCELLED':
      return ['CANCELED']
    default:
      return undefined
  }
}

export interface OrderQuery {
  status?: string
  page?: string
  start_date?: string
  end_date?: string
}

/** GET orders: the user's orders newest first, 10 a page, by status and by day. */
export async function listOrders(
  db: Kysely<Database>,
  customer: Customer & { id: number },
  wire: WireOptions,
  query: OrderQuery,
): Promise<Page<OrderWire>> {
  const request = pageRequest({ page: query.page }, { perPage: ORDERS_PER_PAGE })
  const statuses = statusFilter(query.status)
  const { from, to } = dayRange(query, wire.timeZone)
  let base = db.selectFrom('orders').where('user_id', '=', customer.id)
  if (statuses) base = base.where('status', 'in', statuses)
  if (from) base = base.where('created_at', '>=', from)
  if (to) base = base.where('created_at', '<', to)
  const [counted, rows] = await Promise.all([
    base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
    base
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(request.perPage)
      .offset((request.page - 1) * request.perPage)
      .execute(),
  ])
  return pageOf(
    rows.map((row) => orderWire(row, customer, wire)),
    Number(counted.total),
    request,
  )
}

/** GET orders/{id}: the user's own order, or undefined (another user's is not found either). */
export async function findOrder(
  db: Kysely<Database>,
  userId: number,
  id: number,
): Promise<OrderRow | undefined> {
  return db
    .selectFrom('orders')
    .selectAll()
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst()
}
