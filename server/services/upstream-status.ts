import type { Kysely } from 'kysely'
import { type V2Status } from '../adapters/smm-v2'
import type { Database, LocaleCode } from '../db/schema'
import { t } from '../i18n'
import { errorFields } from '../log'
import { cancelOrder, completeOrder, OPEN_STATUSES, partialOrder } from './order-status'
import {
  panelClient,
  panelColumns,
  panelOf,
  retryDelayMs,
  type UpstreamContext,
} from './upstream-panels'

/*
 * Following placed upstream orders (docs/api.md, Upstream panels): their panels are asked in
 * batches (status with `orders=`) and each answer applied as the operator's commands do
 * (services/order-status.ts): Completed completes, Canceled cancels and refunds, Partial
 * completes and refunds the remains once (partialOrder), anything else waits.
 */

/** Ids per status call, as panels take them. */
const STATUS_BATCH = 100

/** A panel's status word, as panels write it (`In progress`, `Cancelled`...). */
const word = (status: string) => status.toLowerCase().replace(/[^a-z]/g, '')

/** Applies one placed order's status; true once our order is no longer open. */
async function applyStatus(
  db: Kysely<Database>,
  order: { order_id: number; quantity: number; locale: LocaleCode },
  answer: V2Status,
  ctx: UpstreamContext,
): Promise<boolean> {
  const { now, lbpRate } = ctx
  const remains = Number.parseInt(answer.remains ?? '', 10)
  let outcome = word(answer.status)
  // A Partial with nothing left is a completion; with everything left, a cancel.
  if (outcome === 'partial' && !(remains > 0)) outcome = 'completed'
  if (outcome === 'partial' && remains >= order.quantity) outcome = 'canceled'
  switch (outcome) {
    case 'completed':
      await completeOrder(db, order.order_id, { now })
      return true
    case 'partial':
      await partialOrder(db, order.order_id, { remains, lbpRate, now })
      return true
    case 'canceled':
    case 'cancelled':
    case 'refunded':
      await cancelOrder(db, order.order_id, {
        reason: t(order.locale, 'order.canceled_by_provider'),
        lbpRate,
        now,
      })
      return true
    default:
      return false
  }
}

/** Per panel, when its status may be asked again after a failure, and how many in a row. */
const panelPauses = new WeakMap<
  Kysely<Database>,
  Map<number, { until: number; failures: number }>
>()

/**
 * One round of status: the placed attempts whose order is open, per panel, in batches; each
 * answer applied (applyStatus). A panel that fails is asked again after a growing wait. Orders
 * closed here or meanwhile by the operator have their attempt `closed`. Returns how many
 * orders changed.
 */
export async function pollUpstreamOrders(
  db: Kysely<Database>,
  ctx: UpstreamContext,
): Promise<number> {
  const { now, logger } = ctx
  const at = now.toISOString()
  const rows = await db
    .selectFrom('upstream_orders')
    .innerJoin('orders', 'orders.id', 'upstream_orders.order_id')
    .innerJoin('users', 'users.id', 'orders.user_id')
    .innerJoin('upstream_panels', 'upstream_panels.id', 'upstream_orders.panel_id')
    .select([
      'upstream_orders.order_id',
      'upstream_orders.upstream_id',
      'orders.status',
      'orders.quantity',
      'users.locale',
      ...panelColumns,
    ])
    .where('upstream_orders.state', '=', 'placed')
    .orderBy('upstream_orders.order_id')
    .limit(STATUS_BATCH * 10)
    .execute()
  let pauses = panelPauses.get(db)
  if (!pauses) panelPauses.set(db, (pauses = new Map()))
  const close = (orderId: number, values: Partial<V2Status> = {}) =>
    db
      .updateTable('upstream_orders')
      .set({ state: 'closed', ...statusColumns(values), updated_at: at })
      .where('order_id', '=', orderId)
      .where('state', '=', 'placed')
      .execute()
  let changed = 0
  const byPanel = Map.groupBy(rows, (r) => r.panel_id)
  for (const [panelId, placed] of byPanel) {
    const pause = pauses.get(panelId)
    if (pause && pause.until > now.getTime()) continue
    const panel = panelOf(placed[0]!)
    try {
      const client = await panelClient(db, panel, ctx)
      for (let i = 0; i < placed.length; i += STATUS_BATCH) {
        const batch = placed.slice(i, i + STATUS_BATCH)
        const open = batch.filter((r) => OPEN_STATUSES.includes(r.status))
        for (const done of batch.filter((r) => !OPEN_STATUSES.includes(r.status)))
          await close(done.order_id)
        if (open.length === 0) continue
        const answers = await client.status(open.map((r) => r.upstream_id!))
        for (const row of open) {
          const answer = answers.get(row.upstream_id!)
          if (!answer) continue
          if ('error' in answer) {
            await db
              .updateTable('upstream_orders')
              .set({ reason: answer.error, updated_at: at })
              .where('order_id', '=', row.order_id)
              .where('state', '=', 'placed')
              .execute()
          } else if (await applyStatus(db, row, answer, ctx)) {
            changed++
            await close(row.order_id, answer)
          } else {
            await db
              .updateTable('upstream_orders')
              .set({ ...statusColumns(answer), reason: null, updated_at: at })
              .where('order_id', '=', row.order_id)
              .where('state', '=', 'placed')
              .execute()
          }
        }
      }
      pauses.delete(panelId)
    } catch (err) {
      const failures = (pause?.failures ?? 0) + 1
      pauses.set(panelId, { until: now.getTime() + retryDelayMs(failures), failures })
      logger?.warn('upstream status failed', { panel: panel.name, failures, ...errorFields(err) })
    }
  }
  return changed
}

const statusColumns = (s: Partial<V2Status>) => ({
  ...(s.status === undefined ? {} : { upstream_status: s.status.slice(0, 32) }),
  ...(s.charge == null ? {} : { charge: s.charge.slice(0, 32) }),
  ...(s.start_count == null ? {} : { start_count: s.start_count.slice(0, 32) }),
  ...(s.remains == null ? {} : { remains: s.remains.slice(0, 32) }),
})
