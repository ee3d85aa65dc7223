import { type Kysely } from 'kysely'
import type * as v from 'valibot'
import type { OrderForm, PlaceOrderReplySchema } from '../../src/contract/orders'
import { fromMicros } from '../../src/domain/money'
import { ValidationError } from '../core/errors'
import type { Database, LocaleCode, OrderRow, UserRow } from '../db/schema'
import type { AdditionalServiceRow, PackageRow, ProductRow } from '../db/schema-catalogue'
import { t } from '../i18n'
import { generatedImageUrl } from './catalogue-images'
import { itemName } from './item-name'
import { ORDER_FIELD_LABELS, orderWire, type WireOptions } from './order-queries'
import { type StoredAnswer } from './purchase-terms'

/*
 * What both ways of placing an order share (services/order-ledger.ts chooses the way): the
 * order's row, its wallet line's name, the reply, and why a debit was refused.
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
  kept: OrderForm['fields']
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
export class KeyTaken extends Error {
  override name = 'KeyTaken'
}

/**
 * One way of paying for and recording an order, with the same outcome on every database: the
 * conditional debit, the order, its wallet line, its stocked codes, its key with the reply.
 */
/** A way to place an order; `at` is the moment's ISO text, for every row it writes. */
export type Placement = (
  db: Kysely<Database>,
  user: UserRow,
  order: PreparedOrder,
  options: PlaceOptions & { at: string },
) => Promise<PlaceResult>

export type PlaceResult =
  /**
   * `stocked`: completed with codes from the stock, in the same transaction. `upstream`: whether
   * an upstream panel takes the package's orders, when the placement read it in its transaction
   * (otherwise checkout reads it after the commit).
   */
  | { placed: true; reply: PlaceOrderReply; order: OrderRow; stocked: boolean; upstream?: boolean }
  | { placed: false; reply: PlaceOrderReply }

/** The order's row as it is inserted, every column but the id. */
export function orderValues(user: UserRow, order: PreparedOrder, at: string): Omit<OrderRow, 'id'> {
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
export const debitLineName = (locale: LocaleCode, placed: OrderRow) =>
  t(locale, 'wallet.order_debit', { id: placed.id, item: itemName(placed, locale) })

/** The debit was refused: the balance is short, or the wallet's currency changed. */
export class DebitRefused extends Error {
  override name = 'DebitRefused'
  constructor(readonly currencyChanged: boolean) {
    super('debit refused')
  }
}

/** Why the guarded debit moved nothing: too little balance, or a currency switched since. */
export async function debitRefused(
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

export function debitRefusal(currencyChanged: boolean): ValidationError {
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

/** The reply to a placed order; `balance` is the wallet's after the debit. */
export function placedReply(placed: OrderRow, user: UserRow, wire: WireOptions, balance: bigint) {
  const reply: PlaceOrderReply = {
    message: t(wire.locale, 'order.placed'),
    data: orderWire(placed, user, wire),
    balance: fromMicros(balance),
  }
  return reply
}
