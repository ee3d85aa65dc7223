import { sql, type Kysely } from 'kysely'
import type * as v from 'valibot'
import type { Locale } from '../../src/contract/common'
import type { ConsoleOrderLineSchema, ConsoleOrderSchema } from '../../src/contract/console-orders'
import { ORDER_STATUSES } from '../../src/contract/constants'
import { fromMicros } from '../../src/domain/money'
import type { Provider } from '../adapters/provider'
import { ValidationError, type FieldProblem } from '../core/errors'
import { queryPage, type Page, type PageRequest } from '../core/paging'
import type { Database, OrderRow, OrderStatus } from '../db/schema'
import type { Logger } from '../log'
import { recordAudit } from './audit'
import { escapeLike } from './catalogue'
import { dayOf, dayRange, localDateTime } from './dates'
import { itemNames, orderWire } from './order-queries'
import { handOver } from './order-status'
import { withStockCodes } from './stock'
import { resolveAttempt, wakeUpstream } from './upstream'

/*
 * Orders as the operators find them (the console's Orders screen and `orders:list`, docs/api.md,
 * Console): every customer's, searched and filtered; one order with what happened to it; and a
 * failed hand-over sent again (`orders:retry`). Completing and cancelling are
 * services/order-status.ts, as for the provider's answers.
 */

type LineWire = v.InferInput<typeof ConsoleOrderLineSchema>
type OrderDetailWire = v.InferInput<typeof ConsoleOrderSchema>

/** The filters of the console's list, as its query gives them (all optional). */
export interface OrderSearch {
  status?: string
  /** Part of the customer's username or phone number. */
  customer?: string
  /** Part of the product's or package's name (either language), or the product's number. */
  product?: string
  /** Days in the store's time zone (YYYY-MM-DD), both included. */
  start_date?: string
  end_date?: string
}

export type FoundOrder = OrderRow & { username: string; phone_number: string }

const given = (text: string | undefined) => text?.trim() || undefined
const like = (text: string) => `%${escapeLike(text.toLowerCase())}%`

/** The filters checked: a status or a day that is not one is a 422 naming the field. */
function checkedSearch(search: OrderSearch) {
  const problems: FieldProblem[] = []
  const statusText = given(search.status)?.toUpperCase()
  const status = ORDER_STATUSES.find((s) => s === statusText)
  if (statusText && !status)
    problems.push({
      field: 'status',
      id: 'list.state.invalid',
      values: { states: ORDER_STATUSES.join(', ') },
    })
  for (const field of ['start_date', 'end_date'] as const) {
    const day = given(search[field])
    if (day && dayOf(day) === undefined) problems.push({ field, id: 'validation.day' })
  }
  if (problems.length) throw new ValidationError(problems, {})
  return { status, customer: given(search.customer), product: given(search.product) }
}

/**
 * Every customer's orders, newest first, one page of them: by status, customer, product and the
 * store's days; `userId` for one account exactly (orders:list --user).
 */
export async function findOrders(
  db: Kysely<Database>,
  search: OrderSearch & { userId?: number },
  { timeZone, page }: { timeZone: string; page: PageRequest },
): Promise<Page<FoundOrder>> {
  const { status, customer, product } = checkedSearch(search)
  const { from, to } = dayRange(search, timeZone)
  let query = db.selectFrom('orders').innerJoin('users', 'users.id', 'orders.user_id')
  if (search.userId !== undefined) query = query.where('orders.user_id', '=', search.userId)
  if (status) query = query.where('orders.status', '=', status)
  if (from) query = query.where('orders.created_at', '>=', from)
  if (to) query = query.where('orders.created_at', '<', to)
  if (customer) {
    const digits = customer.replace(/\D/g, '')
    query = query.where(({ or }) =>
      or([
        sql<boolean>`lower(users.username) like ${like(customer)} escape '\\'`,
        ...(digits.length >= 3
          ? [sql<boolean>`users.phone_number like ${like(digits)} escape '\\'`]
          : []),
      ]),
    )
  }
  if (product) {
    const pattern = like(product)
    query = query.where(({ or, eb }) =>
      or([
        ...(/^\d{1,9}$/.test(product) ? [eb('orders.product_id', '=', Number(product))] : []),
        sql<boolean>`lower(orders.product_name_en) like ${pattern} escape '\\'`,
        sql<boolean>`orders.product_name_ar like ${pattern} escape '\\'`,
        sql<boolean>`lower(orders.package_name_en) like ${pattern} escape '\\'`,
        sql<boolean>`orders.package_name_ar like ${pattern} escape '\\'`,
      ]),
    )
  }
  return queryPage(query, page, (q) =>
    q
      .selectAll('orders')
      .select(['users.username', 'users.phone_number'])
      .orderBy('orders.created_at', 'desc')
      .orderBy('orders.id', 'desc'),
  )
}

/** A line of the console's list. */
export function orderLine(
  order: FoundOrder,
  { locale, timeZone }: { locale: Locale; timeZone: string },
): LineWire {
  return {
    id: order.id,
    status: order.status,
    ...itemNames(order, locale),
    quantity: order.quantity,
    total_price: fromMicros(order.total_price),
    currency: order.currency,
    customer: { id: order.user_id, username: order.username, phone_number: order.phone_number },
    ...localDateTime(order.created_at, timeZone),
    created_at: order.created_at,
  }
}

/** The audit actions of an order, as its history names them. */
const EVENTS: Record<string, OrderDetailWire['history'][number]['event']> = {
  'orders.complete': 'completed',
  'orders.cancel': 'canceled',
  'orders.retry': 'hand_over_retried',
}

/** One order for the console, or undefined: all the customer gave and what became of it. */
export async function orderDetail(
  db: Kysely<Database>,
  id: number,
  options: { locale: Locale; timeZone: string; tokenSecret: string | undefined },
): Promise<OrderDetailWire | undefined> {
  const row = await db.selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirst()
  if (!row) return undefined
  const [[order], user, partial, upstream, audit, notices] = await Promise.all([
    withStockCodes(db, options.tokenSecret, [row]),
    db
      .selectFrom('users')
      .select(['id', 'username', 'phone_number', 'balance', 'currency'])
      .where('id', '=', row.user_id)
      .executeTakeFirstOrThrow(),
    db.selectFrom('order_partials').selectAll().where('order_id', '=', id).executeTakeFirst(),
    db
      .selectFrom('upstream_orders')
      .innerJoin('upstream_panels', 'upstream_panels.id', 'upstream_orders.panel_id')
      .selectAll('upstream_orders')
      .select('upstream_panels.name as panel')
      .where('order_id', '=', id)
      .executeTakeFirst(),
    db
      .selectFrom('audit_log')
      .select(['actor', 'action', 'details', 'created_at'])
      .where('user_id', '=', row.user_id)
      .where('action', 'in', Object.keys(EVENTS))
      .orderBy('id')
      .execute(),
    db
      .selectFrom('notifications')
      .select('created_at')
      .where('user_id', '=', row.user_id)
      .where('subject_kind', '=', 'order')
      .where('subject_id', '=', id)
      .orderBy('id')
      .execute(),
  ])
  const refund = partial
    ? { amount: fromMicros(partial.amount), currency: partial.currency }
    : row.status === 'CANCELED'
      ? { amount: fromMicros(row.total_price), currency: row.currency }
      : null
  const history: OrderDetailWire['history'] = [
    { at: row.created_at, event: 'placed' as const, actor: null },
    ...audit
      .filter((a) => (JSON.parse(a.details) as { order?: unknown }).order === id)
      .map((a) => ({ at: a.created_at, event: EVENTS[a.action]!, actor: a.actor })),
    ...notices.map((n) => ({ at: n.created_at, event: 'customer_notified' as const, actor: null })),
  ].sort((a, b) => a.at.localeCompare(b.at))
  return {
    ...orderWire(order!, user, options),
    customer: {
      id: user.id,
      username: user.username,
      phone_number: user.phone_number,
      balance: fromMicros(user.balance),
      currency: user.currency,
    },
    debit: { amount: fromMicros(row.total_price), currency: row.currency },
    refund,
    provider_ref: row.provider_ref,
    upstream: upstream
      ? {
          panel: upstream.panel,
          service: upstream.service,
          state: upstream.state,
          upstream_id: upstream.upstream_id,
          upstream_status: upstream.upstream_status,
          attempts: upstream.attempts,
          reason: upstream.reason,
        }
      : null,
    can_retry: canRetry(row.status, upstream?.state),
    updated_at: row.updated_at,
    history,
  }
}

/** An upstream attempt the operator may send again: refused, of unknown outcome, or waiting. */
const RETRYABLE_UPSTREAM = ['unknown', 'refused', 'retry']

const canRetry = (status: OrderStatus, upstream: string | undefined) =>
  (status === 'FAILED' || status === 'WAITING') &&
  (upstream === undefined ? status === 'FAILED' : RETRYABLE_UPSTREAM.includes(upstream))

/**
 * Sends a failed hand-over again, once however many operators ask at the same moment: an
 * upstream panel's attempt is put back for the loop (as `upstream:resolve --send`); an order the
 * provider refused (FAILED, no panel) goes back to WAITING (a guarded update: one caller wins)
 * and is handed to the provider again, whose answer is recorded as at checkout. `changed: false`
 * when there is nothing to retry.
 */
export async function retryHandOver(
  db: Kysely<Database>,
  provider: Provider,
  orderId: number,
  { now, actor, logger }: { now: Date; actor: string; logger?: Logger },
): Promise<{ changed: boolean; order: OrderRow | undefined }> {
  const attempt = await db
    .selectFrom('upstream_orders')
    .select('state')
    .where('order_id', '=', orderId)
    .executeTakeFirst()
  let changed: boolean
  let handTo: OrderRow | undefined
  if (attempt) {
    changed = await resolveAttempt(db, orderId, { send: true }, now)
  } else {
    handTo = await db
      .updateTable('orders')
      .set({ status: 'WAITING', provider_ref: null, updated_at: now.toISOString() })
      .where('id', '=', orderId)
      .where('status', '=', 'FAILED')
      .returningAll()
      .executeTakeFirst()
    changed = handTo !== undefined
  }
  const order = await db
    .selectFrom('orders')
    .selectAll()
    .where('id', '=', orderId)
    .executeTakeFirst()
  if (!changed || !order) return { changed: false, order }
  const user = await db
    .selectFrom('users')
    .select(['id', 'username'])
    .where('id', '=', order.user_id)
    .executeTakeFirstOrThrow()
  await recordAudit(db, {
    actor,
    action: 'orders.retry',
    user,
    details: { order: orderId, via: attempt ? 'upstream' : 'provider' },
    now,
  })
  if (attempt) wakeUpstream(db)
  else await handOver(db, provider, handTo!, { now, ...(logger ? { logger } : {}) })
  return {
    changed: true,
    order: await db.selectFrom('orders').selectAll().where('id', '=', orderId).executeTakeFirst(),
  }
}
