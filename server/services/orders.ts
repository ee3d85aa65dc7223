import { createHash } from 'node:crypto'
import type { Kysely } from 'kysely'
import type * as v from 'valibot'
import type { Locale } from '../../src/contract/common'
import {
  ORDER_TEXT_MAX,
  type OrderSchema,
  type PlaceOrderReplySchema,
} from '../../src/contract/orders'
import { fromMicros } from '../../src/domain/money'
import { convertFromUsd, totalPrice, unitPrice, type PriceInput } from '../../src/domain/pricing'
import type { Database, OrderRow, OrderStatus, UserRow } from '../db/schema'
import type { AdditionalServiceRow, PackageRow, ProductRow } from '../db/schema-catalogue'
import { inTransaction } from '../db/transaction'
import { ApiError } from '../http/errors'
import { ValidationError, type FieldMessages, type FieldProblem } from '../http/validation'
import { t, type MessageId } from '../i18n'
import { generatedImageUrl } from './catalogue-images'
import { parseRequirements, type Page } from './catalogue'
import { addWalletLog } from './wallet'

/*
 * Placing and reading orders (spec sections 3, 4, 5 and 7). The price is always computed
 * here, with the one pricing rule (src/domain/pricing.ts), from the catalogue as it is now;
 * nothing the client sends about money is read.
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
  qty: { label: 'field.quantity' },
  quantity: { label: 'field.quantity' },
  player_number: { label: 'field.player_number' },
  player_name: { label: 'field.player_name' },
  product_reference: { label: 'field.product_reference' },
  email_or_phone_number: { label: 'field.email_or_phone_number' },
  password: { label: 'field.password' },
  contact_number: { label: 'field.contact_number' },
  service_type: { label: 'field.service_type' },
  social_link: { label: 'field.social_link' },
  wallet_address: { label: 'field.wallet_address' },
}

/** The form as sent: text fields only, trimmed, without the values spec section 5 drops. */
export type OrderFields = Record<string, string>

const DROPPED = new Set(['', 'null', 'undefined'])

export function orderFields(raw: Record<string, unknown>): OrderFields {
  const fields: OrderFields = {}
  for (const [name, value] of Object.entries(raw)) {
    if (typeof value !== 'string') continue
    const text = value.trim()
    if (!DROPPED.has(text)) fields[name] = text
  }
  return fields
}

/**
 * What makes two order calls "the same request" for an Idempotency-Key: the fields after
 * normalisation (qty and quantity are one field; `local` is only the reply's language) and
 * the player name from the query.
 */
export function requestHash(fields: OrderFields, playerNameQuery: string | undefined): string {
  const normalised: Record<string, string> = { ...fields }
  if (normalised.qty !== undefined) {
    normalised.quantity ??= normalised.qty
    delete normalised.qty
  }
  const query = playerNameQuery?.trim()
  if (query) normalised['?player_name'] = query
  const sorted = Object.keys(normalised)
    .sort()
    .map((k) => [k, normalised[k]])
  return createHash('sha256').update(JSON.stringify(sorted)).digest('hex')
}

// ---- validation -----------------------------------------------------------------------------

function refuse(field: string, id: MessageId, values?: Record<string, unknown>): never {
  const problem: FieldProblem = { field, id, values }
  throw new ValidationError([problem], ORDER_FIELD_LABELS)
}

const idOf = (text: string | undefined) =>
  text !== undefined && /^[1-9]\d{0,14}$/.test(text) ? Number(text) : undefined

const pick = (locale: Locale, en: string, ar: string) => (locale === 'ar' ? ar || en : en)
/** Catalogue percentages are micro-units of a percent; the pricing rule takes decimals. */
const percent = (micros: number | null | undefined) => (micros ? fromMicros(micros) : 0)
const isAvailable = (p: Pick<ProductRow, 'is_available' | 'force_unavailable'>) =>
  p.is_available === 1 && p.force_unavailable === 0

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
  requirements: Record<string, string>
  fields: OrderFields
}

export interface PrepareOptions {
  locale: Locale
  /** LBP per USD: catalogue prices are USD, an LBP wallet pays the converted amount. */
  lbpRate: number
  playerNameQuery?: string
}

/**
 * Checks an order form in the order spec section 5 gives and prices it. Throws the first
 * problem: ApiError 404 for an item that does not exist, ValidationError (422) otherwise.
 */
export async function prepareOrder(
  db: Kysely<Database>,
  user: UserRow,
  fields: OrderFields,
  { locale, lbpRate, playerNameQuery }: PrepareOptions,
): Promise<PreparedOrder> {
  for (const [name, value] of Object.entries(fields)) {
    if (value.length > ORDER_TEXT_MAX) {
      refuse(name, 'validation.max_length', { max: ORDER_TEXT_MAX })
    }
  }

  // The item, and whether it can be bought.
  const packageId = idOf(fields.package_id)
  const productId = idOf(fields.product_id)
  let pkg: PackageRow | undefined
  let product: ProductRow | undefined
  if (fields.package_id !== undefined) {
    pkg =
      packageId === undefined
        ? undefined
        : await db.selectFrom('packages').selectAll().where('id', '=', packageId).executeTakeFirst()
    if (!pkg) throw new ApiError(404, 'catalogue.package_not_found')
    product = await db
      .selectFrom('products')
      .selectAll()
      .where('id', '=', pkg.product_id)
      .executeTakeFirstOrThrow()
  } else if (fields.product_id !== undefined) {
    product =
      productId === undefined
        ? undefined
        : await db.selectFrom('products').selectAll().where('id', '=', productId).executeTakeFirst()
    if (!product) throw new ApiError(404, 'catalogue.product_not_found')
  } else {
    refuse('product_id', 'order.item.required')
  }
  // An entry that merges to another product is a link to that product's page, not an item.
  if (!isAvailable(product) || (pkg && (pkg.is_available !== 1 || pkg.merge_to !== null))) {
    refuse(pkg ? 'package_id' : 'product_id', 'order.unavailable')
  }

  // A package's purchase fields, where set, override its product's.
  const own = <T>(value: T | null | undefined, fallback: T): T =>
    value === null || value === undefined ? fallback : value
  let minimum = own(pkg?.minimum_qut, product.minimum_qut)
  const maximum = own(pkg?.maximum_qut, product.maximum_qut)
  const requirementsJson = own(pkg?.requirements, product.requirements)
  const requirePlayer = own(pkg?.require_player_number, product.require_player_number) === 1
  const thPartyApiId = own(pkg?.th_party_api_id, product.th_party_api_id)

  // Quantity: a whole number (left out: one, as on the forms that hide it).
  const rawQuantity = fields.qty ?? fields.quantity
  const quantityField = fields.qty !== undefined ? 'qty' : 'quantity'
  let quantity = 1
  if (rawQuantity !== undefined) {
    if (!/^\d{1,15}$/.test(rawQuantity)) refuse(quantityField, 'order.quantity.integer')
    quantity = Number(rawQuantity)
  }

  // Social services: the chosen service sets the price and its own minimum.
  const services = pkg
    ? []
    : await db
        .selectFrom('product_additional_services')
        .selectAll()
        .where('product_id', '=', product.id)
        .orderBy('position')
        .orderBy('id')
        .execute()
  let service: AdditionalServiceRow | undefined
  if (services.length > 0) {
    const wanted = fields.service_type
    if (wanted === undefined) {
      refuse('service_type', 'order.field.required', { label: t(locale, 'field.service_type') })
    }
    service = services.find((s) => s.type.toUpperCase() === wanted.toUpperCase())
    if (!service) refuse('service_type', 'order.service_type.invalid')
    minimum = service.minimum_qut
  }

  if (quantity < Math.max(minimum, 1)) {
    refuse(quantityField, 'order.quantity.min', { min: Math.max(minimum, 1) })
  }
  if (maximum > 0 && quantity > maximum) {
    refuse(quantityField, 'order.quantity.max', { max: maximum })
  }

  const required = (name: keyof typeof ORDER_FIELD_LABELS) => {
    if (fields[name] === undefined) {
      refuse(name, 'order.field.required', {
        label: t(locale, ORDER_FIELD_LABELS[name]!.label),
      })
    }
  }
  if (service) required('social_link')
  const crypto = product.number === 3
  if (crypto) required('wallet_address')

  // The product's own fields, by name, each required (spec section 5).
  const requirements: Record<string, string> = {}
  for (const r of parseRequirements(requirementsJson)) {
    const value = fields[r.name]
    if (value === undefined) {
      refuse(r.name, 'order.field.required', {
        label: locale === 'ar' ? r.label_ar || r.label_en : r.label_en,
      })
    }
    requirements[r.name] = value
  }

  // The player: looked up by this user for this product, or at least given.
  const playerNumber = fields.player_number ?? null
  let playerName = fields.player_name ?? (playerNameQuery?.trim() || null)
  if (thPartyApiId !== null && !requirePlayer) {
    const verified =
      playerNumber === null
        ? undefined
        : await db
            .selectFrom('player_numbers')
            .select('player_name')
            .where('user_id', '=', user.id)
            .where('product_id', '=', product.id)
            .where('player_number', '=', playerNumber)
            .executeTakeFirst()
    if (!verified) refuse('player_number', 'order.player_number.unverified')
    playerName = verified.player_name
  }
  if (requirePlayer) required('player_number')

  // The price, from the catalogue as it is now.
  const item: PriceInput = service
    ? {
        companyPrice: BigInt(service.company_price),
        productPercentage: percent(service.product_percentage),
        companyPercentage: percent(product.company_percentage),
        number: product.number,
      }
    : pkg
      ? {
          companyPrice: BigInt(pkg.company_price),
          companyPercentage: percent(pkg.company_percentage),
          productPercentage: percent(pkg.product_percentage),
          number: product.number,
        }
      : {
          companyPrice: BigInt(product.company_price),
          secCompanyPrice:
            product.sec_company_price === null ? null : BigInt(product.sec_company_price),
          companyPercentage: percent(product.company_percentage),
          productPercentage: percent(product.product_percentage),
          number: product.number,
        }
  const unitUsd = unitPrice(item, user.type, { crypto, quantity })
  // The total is converted as a whole, so whole-pound rounding happens once, not per unit.
  const totalUsd = totalPrice(unitUsd, quantity)
  return {
    product,
    pkg,
    service,
    quantity,
    unitPrice: convertFromUsd(unitUsd, lbpRate, user.currency),
    totalPrice: convertFromUsd(totalUsd, lbpRate, user.currency),
    currency: user.currency,
    playerNumber,
    playerName,
    requirements,
    fields,
  }
}

// ---- replies --------------------------------------------------------------------------------

export interface Customer {
  username: string
  phone_number: string
}

/** What was bought, in words: "PUBG Mobile UC — 60 UC". */
export function itemName(
  order: Pick<
    OrderRow,
    'product_name_en' | 'product_name_ar' | 'package_name_en' | 'package_name_ar'
  >,
  locale: Locale,
): string {
  const product = pick(locale, order.product_name_en, order.product_name_ar)
  const pkg =
    order.package_name_en === null
      ? null
      : pick(locale, order.package_name_en, order.package_name_ar ?? '')
  return pkg ? `${product} — ${pkg}` : product
}

/** An order as the storefront reads it (spec section 3), names in the request's language. */
export function orderWire(order: OrderRow, customer: Customer, locale: Locale): OrderWire {
  return {
    id: order.id,
    product_id: order.product_id,
    package_id: order.package_id,
    product_image: order.product_image,
    product_name: pick(locale, order.product_name_en, order.product_name_ar),
    package_name:
      order.package_name_en === null
        ? null
        : pick(locale, order.package_name_en, order.package_name_ar ?? ''),
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
    requirements: order.requirements,
    // Times are UTC, like the date filters of GET orders.
    date: order.created_at.slice(0, 10),
    time: order.created_at.slice(11, 16),
  } as OrderWire
}

// ---- placing --------------------------------------------------------------------------------

export interface PlaceOptions {
  /** The Idempotency-Key and the hash of the request it came with. */
  key: string
  requestHash: string
  locale: Locale
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
  if (row.request_hash !== hash) refuse('idempotency_key', 'order.idempotency.conflict')
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
  prepared: PreparedOrder,
  { key, requestHash: hash, locale, now }: PlaceOptions,
): Promise<PlaceResult> {
  const at = now.toISOString()
  const total = prepared.totalPrice
  try {
    return await inTransaction(db, async (trx) => {
      const claimed = await trx
        .insertInto('idempotency_keys')
        .values({
          user_id: user.id,
          key,
          request_hash: hash,
          order_id: null,
          reply: null,
          created_at: at,
        })
        .onConflict((oc) => oc.columns(['user_id', 'key']).doNothing())
        .executeTakeFirst()
      if (Number(claimed.numInsertedOrUpdatedRows ?? 0) === 0) throw new KeyTaken()

      const debited = await trx
        .updateTable('users')
        .set((eb) => ({ balance: eb('balance', '-', total) }))
        .where('id', '=', user.id)
        .where('balance', '>=', total)
        // Priced in this currency: a switch since then must not debit the converted balance.
        .where('currency', '=', prepared.currency)
        .returning(['balance', 'locale'])
        .executeTakeFirst()
      if (!debited) {
        const current = await trx
          .selectFrom('users')
          .select('currency')
          .where('id', '=', user.id)
          .executeTakeFirstOrThrow()
        refuse(
          'balance',
          current.currency === prepared.currency
            ? 'order.balance.insufficient'
            : 'order.currency_changed',
        )
      }

      const { product, pkg, fields } = prepared
      const order = await trx
        .insertInto('orders')
        .values({
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
          quantity: prepared.quantity,
          unit_price: prepared.unitPrice,
          total_price: total,
          currency: prepared.currency,
          status: 'WAITING',
          refuse_reason: null,
          accept_note: null,
          item_codes: '[]',
          expiry_date: null,
          player_name: prepared.playerName,
          player_number: prepared.playerNumber,
          service_type: prepared.service?.type ?? null,
          social_link: fields.social_link ?? null,
          wallet_address: fields.wallet_address ?? null,
          email_or_phone_number: fields.email_or_phone_number ?? null,
          password: fields.password ?? null,
          contact_number: fields.contact_number ?? null,
          requirements: JSON.stringify(prepared.requirements),
          provider_ref: null,
          created_at: at,
          updated_at: at,
        })
        .returningAll()
        .executeTakeFirstOrThrow()

      await addWalletLog(trx, {
        userId: user.id,
        status: 'Discounted',
        // The history is the user's own record: in their language, like notifications.
        name: t(debited.locale, 'wallet.order_debit', {
          id: order.id,
          item: itemName(order, debited.locale),
        }),
        previousBalance: debited.balance + total,
        value: total,
        currentBalance: debited.balance,
        currency: prepared.currency,
        now,
      })

      const reply: PlaceOrderReply = {
        message: t(locale, 'order.placed'),
        data: orderWire(order, user, locale),
        balance: fromMicros(debited.balance),
      }
      await trx
        .updateTable('idempotency_keys')
        .set({ order_id: order.id, reply: JSON.stringify(reply) })
        .where('user_id', '=', user.id)
        .where('key', '=', key)
        .execute()
      return { placed: true as const, reply, order }
    })
  } catch (err) {
    if (!(err instanceof KeyTaken)) throw err
    const reply = await replayed(db, user.id, key, hash)
    if (!reply) throw new Error(`idempotency key ${key} vanished`, { cause: err })
    return { placed: false, reply }
  }
}

// ---- reading --------------------------------------------------------------------------------

/** The status filter of the orders page: FAILED shows as WAITING (spec section 4). */
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

/** 'YYYY-MM-DD' or 'YYYY-MM-DD 00:00:00' (spec section 7) to the day, if it is one. */
export function dayOf(text: string | undefined): string | undefined {
  const match = /^(\d{4}-\d{2}-\d{2})(?:[ T+]\d{2}:\d{2}(?::\d{2})?)?$/.exec(text?.trim() ?? '')
  if (!match) return undefined
  const day = match[1]!
  const date = new Date(`${day}T00:00:00.000Z`)
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(day) ? day : undefined
}

const nextDay = (day: string) =>
  new Date(Date.parse(`${day}T00:00:00.000Z`) + 86_400_000).toISOString().slice(0, 10)

export interface OrderQuery {
  status?: string
  page?: string
  start_date?: string
  end_date?: string
}

/** GET orders: the user's orders newest first, 10 a page, by status and UTC day range. */
export async function listOrders(
  db: Kysely<Database>,
  customer: Customer & { id: number },
  locale: Locale,
  query: OrderQuery,
): Promise<Page<OrderWire>> {
  const page = /^\d{1,9}$/.test(query.page ?? '') && Number(query.page) > 0 ? Number(query.page) : 1
  const statuses = statusFilter(query.status)
  const start = dayOf(query.start_date)
  const end = dayOf(query.end_date)
  let base = db.selectFrom('orders').where('user_id', '=', customer.id)
  if (statuses) base = base.where('status', 'in', statuses)
  if (start) base = base.where('created_at', '>=', `${start}T00:00:00.000Z`)
  // The end day counts whole.
  if (end) base = base.where('created_at', '<', `${nextDay(end)}T00:00:00.000Z`)
  const [counted, rows] = await Promise.all([
    base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
    base
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(ORDERS_PER_PAGE)
      .offset((page - 1) * ORDERS_PER_PAGE)
      .execute(),
  ])
  const total = Number(counted.total)
  return {
    data: rows.map((row) => orderWire(row, customer, locale)),
    total,
    per_page: ORDERS_PER_PAGE,
    current_page: page,
    last_page: Math.max(1, Math.ceil(total / ORDERS_PER_PAGE)),
  }
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
