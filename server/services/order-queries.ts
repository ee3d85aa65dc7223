import { type Kysely } from 'kysely'
import type * as v from 'valibot'
import type { Locale } from '../../src/contract/common'
import { LIST_SORTS } from '../../src/contract/constants'
import type { OrderSchema } from '../../src/contract/orders'
import { fromMicros } from '../../src/domain/money'
import type { FieldMessages } from '../core/errors'
import { listCall, mapPage, type ListQuery, type Page } from '../core/paging'
import type { Database, OrderRow, OrderStatus } from '../db/schema'
import { localized } from '../i18n'
import { dayRange, localDateTime } from './dates'
import { storedAnswers } from './purchase-terms'

/* Orders as the customer reads them: the reply shape, the list and one order. */

export type OrderWire = v.InferInput<typeof OrderSchema>

/** Orders per page of GET orders. */
export const ORDERS_PER_PAGE = 10

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

/** An order's product and package names in one language (null: no package). */
export function itemNames(
  order: Pick<
    OrderRow,
    'product_name_en' | 'product_name_ar' | 'package_name_en' | 'package_name_ar'
  >,
  locale: Locale,
) {
  return {
    product_name: localized(locale, order.product_name_en, order.product_name_ar),
    package_name:
      order.package_name_en === null
        ? null
        : localized(locale, order.package_name_en, order.package_name_ar),
  }
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
    ...itemNames(order, locale),
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

export interface OrderQuery extends ListQuery {
  status?: string
  page?: string
  start_date?: string
  end_date?: string
}

/** GET orders: the user's orders newest first or as sorted, 10 a page, by status and by day. */
export async function listOrders(
  db: Kysely<Database>,
  customer: Customer & { id: number },
  wire: WireOptions,
  query: OrderQuery,
  /** What the rows read are shown with: their stock codes (services/stock.ts). */
  reveal: (rows: OrderRow[]) => Promise<OrderRow[]>,
): Promise<Page<OrderWire>> {
  const list = listCall(query, { sorts: LIST_SORTS.orders, perPage: ORDERS_PER_PAGE })
  const statuses = statusFilter(query.status)
  const { from, to } = dayRange(query, wire.timeZone)
  let base = db.selectFrom('orders').where('user_id', '=', customer.id)
  if (statuses) base = base.where('status', 'in', statuses)
  if (from) base = base.where('created_at', '>=', from)
  if (to) base = base.where('created_at', '<', to)
  const page = await list.page(base)
  const shown = await reveal(page.data)
  return mapPage({ ...page, data: shown }, (row) => orderWire(row, customer, wire))
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
