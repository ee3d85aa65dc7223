import type { Kysely } from 'kysely'
import pLimit from 'p-limit'
import { V2Refused, V2Unreached } from '../adapters/smm-v2'
import type { Database, OrderRow, UpstreamState } from '../db/schema'
import { inTransaction } from '../db/transaction'
import { errorFields, type Logger } from '../log'
import { OPEN_STATUSES } from './order-status'
import { storedAnswers } from './purchase-terms'
import {
  panelClient,
  panelColumns,
  panelOf,
  retryDelayMs,
  type PanelRow,
  type UpstreamContext,
  type UpstreamSettings,
} from './upstream-panels'
import { pollUpstreamOrders } from './upstream-status'

/*
 * Upstream panels (docs/api.md, Upstream panels): a package's orders bought from another
 * panel's API v2 (adapters/smm-v2.ts). A paid order of a mapped package that the stock did not
 * complete is placed by a background loop, never in the customer's request:
 *
 * 1. its attempt is written first (`sending`; UNIQUE order_id: one attempt per order, whatever
 *    runs at once), and only the writer of that row calls `add`;
 * 2. the answer settles it: `placed` with the panel's order id; `refused` with the panel's
 *    reason (the order FAILED, for the operator); `retry` later with a growing wait when the
 *    panel could not be reached at all (nothing was sent); `unknown` when the call may have
 *    reached the panel without an answer (a timeout, a cut connection): v2 has no idempotency
 *    key, so it is never sent again by itself; the operator looks at the panel and says what
 *    happened (upstream:resolve). A `sending` row older than twice the timeout (the server
 *    stopped mid-call) becomes `unknown` the same way;
 * 3. placed orders are asked about in batches (services/upstream-status.ts: status with `orders=`) and their answer applied
 *    as the operator's commands do (services/order-status.ts): Completed completes, Canceled
 *    cancels and refunds, Partial completes and refunds the remains (partialOrder), anything
 *    else waits.
 */

/** Attempts at a panel that cannot be reached before the order is left to the operator. */
const MAX_UNREACHED = 6
/** Orders placed per round, and calls to panels at once. */
const PLACE_BATCH = 50
const CONCURRENT_CALLS = 4

// ---- placing --------------------------------------------------------------------------------

/**
 * What `add` carries: the service, the quantity, `link` (the form's main field: the social
 * link, the wallet, the account, the player number or the first own field) and the order's
 * other fields by the storefront's names, which a panel that is this store understands and
 * others ignore.
 */
export function addFields(order: OrderRow, service: string): Record<string, string> {
  const answers = storedAnswers(order.requirements)
  const own: Record<string, string | null> = {
    social_link: order.social_link,
    wallet_address: order.wallet_address,
    email_or_phone_number: order.email_or_phone_number,
    player_number: order.player_number,
    password: order.password,
    contact_number: order.contact_number,
  }
  const link =
    order.social_link ??
    order.wallet_address ??
    order.email_or_phone_number ??
    order.player_number ??
    answers[0]?.value
  const fields: Record<string, string> = { service, quantity: String(order.quantity) }
  if (link) fields.link = link
  for (const [name, value] of Object.entries(own)) if (value) fields[name] = value
  for (const answer of answers) fields[answer.name] ??= answer.value
  return fields
}

async function settle(
  db: Kysely<Database>,
  orderId: number,
  state: UpstreamState,
  values: { upstream_id?: string; reason?: string | null; next_at?: string | null },
  now: Date,
) {
  await db
    .updateTable('upstream_orders')
    .set({ state, ...values, updated_at: now.toISOString() })
    .where('order_id', '=', orderId)
    .where('state', '=', 'sending')
    .execute()
}

/** Refused: the order is FAILED, left to the operator with the panel's reason. */
async function refuse(db: Kysely<Database>, orderId: number, reason: string, now: Date) {
  await inTransaction(db, async (trx) => {
    await settle(trx, orderId, 'refused', { reason, next_at: null }, now)
    await trx
      .updateTable('orders')
      .set({ status: 'FAILED', updated_at: now.toISOString() })
      .where('id', '=', orderId)
      .where('status', '=', 'WAITING')
      .execute()
  })
}

interface Claimed {
  order: OrderRow
  panel: PanelRow
  service: string
  attempts: number
}

/** One `add` for an attempt this process wrote, and its answer recorded. */
async function send(db: Kysely<Database>, claimed: Claimed, ctx: UpstreamContext) {
  const { order, panel, service, attempts } = claimed
  const { now, logger } = ctx
  let upstreamId: string
  try {
    const client = await panelClient(db, panel, ctx)
    upstreamId = await client.add(addFields(order, service))
  } catch (err) {
    const reason = (err as Error).message
    logger?.warn('upstream add failed', { order: order.id, panel: panel.name, attempts, reason })
    if (err instanceof V2Refused) return refuse(db, order.id, reason, now)
    if (err instanceof V2Unreached) {
      if (attempts >= MAX_UNREACHED)
        return refuse(
          db,
          order.id,
          `${panel.name} could not be reached ${attempts} times: ${reason}`,
          now,
        )
      const next = new Date(now.getTime() + retryDelayMs(attempts)).toISOString()
      return settle(db, order.id, 'retry', { reason, next_at: next }, now)
    }
    // It may have been placed: asked of the operator, never sent again by itself.
    return settle(db, order.id, 'unknown', { reason, next_at: null }, now)
  }
  // Should this record fail, the row stays `sending` and becomes `unknown`: never sent twice.
  await settle(
    db,
    order.id,
    'placed',
    { upstream_id: upstreamId, reason: null, next_at: null },
    now,
  )
  logger?.info('upstream order placed', {
    order: order.id,
    panel: panel.name,
    upstream: upstreamId,
  })
}

/**
 * One round of placing: attempts whose call was cut off become `unknown`; new orders of mapped
 * packages get their attempt (the one writer of the row sends it); attempts due for a retry
 * are taken back (by one process) and sent. Returns how many calls were made.
 */
export async function placeUpstreamOrders(
  db: Kysely<Database>,
  ctx: UpstreamContext,
): Promise<number> {
  const { now } = ctx
  const at = now.toISOString()
  await db
    .updateTable('upstream_orders')
    .set({
      state: 'unknown',
      reason:
        'no answer was recorded (the server stopped during the call, or it outlived its timeout)',
      updated_at: at,
    })
    .where('state', '=', 'sending')
    .where('updated_at', '<', new Date(now.getTime() - 2 * ctx.timeoutMs).toISOString())
    .execute()

  const fresh = await db
    .selectFrom('orders')
    .innerJoin('upstream_services', 'upstream_services.package_id', 'orders.package_id')
    .innerJoin('upstream_panels', 'upstream_panels.id', 'upstream_services.panel_id')
    .selectAll('orders')
    .select(['upstream_services.service as upstream_service', ...panelColumns])
    .where('orders.status', '=', 'WAITING')
    // Orders from before the mapping were meant for the operator or another way.
    .whereRef('orders.created_at', '>=', 'upstream_services.created_at')
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('upstream_orders')
            .select('id')
            .whereRef('upstream_orders.order_id', '=', 'orders.id'),
        ),
      ),
    )
    .orderBy('orders.id')
    .limit(PLACE_BATCH)
    .execute()
  const claimed: Claimed[] = []
  for (const row of fresh) {
    const { upstream_service, panel_id, panel_name, panel_url, panel_key, ...order } = row
    const written = await db
      .insertInto('upstream_orders')
      .values({
        order_id: order.id,
        panel_id,
        service: upstream_service,
        state: 'sending',
        attempts: 1,
        created_at: at,
        updated_at: at,
      })
      .onConflict((oc) => oc.column('order_id').doNothing())
      .returning('id')
      .executeTakeFirst()
    if (written)
      claimed.push({
        order,
        panel: panelOf({ panel_id, panel_name, panel_url, panel_key }),
        service: upstream_service,
        attempts: 1,
      })
  }

  const due = await db
    .selectFrom('upstream_orders')
    .select(['order_id', 'attempts'])
    .where('state', '=', 'retry')
    .where('next_at', '<=', at)
    .orderBy('next_at')
    .limit(PLACE_BATCH)
    .execute()
  for (const retry of due) {
    const taken = await db
      .updateTable('upstream_orders')
      .set({ state: 'sending', attempts: retry.attempts + 1, updated_at: at })
      .where('order_id', '=', retry.order_id)
      .where('state', '=', 'retry')
      .where('attempts', '=', retry.attempts)
      .executeTakeFirst()
    if (Number(taken.numUpdatedRows) !== 1) continue
    const row = await db
      .selectFrom('upstream_orders')
      .innerJoin('orders', 'orders.id', 'upstream_orders.order_id')
      .innerJoin('upstream_panels', 'upstream_panels.id', 'upstream_orders.panel_id')
      .selectAll('orders')
      .select(['upstream_orders.service as upstream_service', ...panelColumns])
      .where('upstream_orders.order_id', '=', retry.order_id)
      .executeTakeFirstOrThrow()
    const { upstream_service, panel_id, panel_name, panel_url, panel_key, ...order } = row
    claimed.push({
      order,
      panel: panelOf({ panel_id, panel_name, panel_url, panel_key }),
      service: upstream_service,
      attempts: retry.attempts + 1,
    })
  }

  const limit = pLimit(CONCURRENT_CALLS)
  await Promise.all(claimed.map((c) => limit(() => send(db, c, ctx))))
  return claimed.length
}

// ---- the operator ---------------------------------------------------------------------------

/**
 * The operator's answer for an attempt whose outcome was unknown (or refused, or left for
 * retries): `placed` with the panel's order id (then its status is polled), or `send` to send
 * it again, when the panel has no such order.
 */
export async function resolveAttempt(
  db: Kysely<Database>,
  orderId: number,
  answer: { placed: string } | { send: true },
  now: Date,
): Promise<boolean> {
  const at = now.toISOString()
  return inTransaction(db, async (trx) => {
    const order = await trx
      .updateTable('orders')
      .set({ status: 'WAITING', updated_at: at })
      .where('id', '=', orderId)
      .where('status', 'in', OPEN_STATUSES)
      .returning('id')
      .executeTakeFirst()
    if (!order) return false
    const done = await trx
      .updateTable('upstream_orders')
      .set(
        'placed' in answer
          ? { state: 'placed', upstream_id: answer.placed, reason: null, updated_at: at }
          : { state: 'retry', attempts: 0, next_at: at, reason: null, updated_at: at },
      )
      .where('order_id', '=', orderId)
      .where('state', 'in', ['unknown', 'refused', 'retry'])
      .executeTakeFirst()
    return Number(done.numUpdatedRows) === 1
  })
}

/** The attempts, newest first; `attention`: those waiting for the operator. */
export function upstreamAttempts(db: Kysely<Database>, { attention }: { attention: boolean }) {
  let query = db
    .selectFrom('upstream_orders')
    .innerJoin('upstream_panels', 'upstream_panels.id', 'upstream_orders.panel_id')
    .innerJoin('orders', 'orders.id', 'upstream_orders.order_id')
    .select([
      'upstream_orders.order_id',
      'orders.status as order_status',
      'upstream_panels.name as panel',
      'upstream_orders.service',
      'upstream_orders.state',
      'upstream_orders.upstream_id',
      'upstream_orders.upstream_status',
      'upstream_orders.remains',
      'upstream_orders.attempts',
      'upstream_orders.reason',
      'upstream_orders.updated_at',
    ])
    .orderBy('upstream_orders.order_id', 'desc')
    .limit(100)
  if (attention) query = query.where('upstream_orders.state', 'in', ['refused', 'unknown'])
  return query.execute()
}

// ---- the loop -------------------------------------------------------------------------------

/** The running loop of each database, for checkout to wake (wakeUpstream). */
const loops = new WeakMap<Kysely<Database>, UpstreamLoop>()

/** A new order for an upstream was paid: the loop of this process places it at once. */
export function wakeUpstream(db: Kysely<Database>): void {
  loops.get(db)?.wake()
}

export interface UpstreamLoop {
  /** A new order may be waiting: the next round starts now (or after the one under way). */
  wake(): void
  /** Resolves once the round under way has finished; no other starts. */
  stop(): Promise<void>
}

/**
 * Places and polls every `intervalMs` until stopped. A round's errors are logged and the next
 * round tries again.
 */
export function startUpstream(
  db: Kysely<Database>,
  settings: UpstreamSettings & { lbpRate: number; intervalMs: number; logger: Logger },
): UpstreamLoop {
  let stopped = false
  let timer: ReturnType<typeof setTimeout> | undefined
  let running: Promise<void> | undefined
  let again = false
  const round = async () => {
    const ctx = { ...settings, now: new Date() }
    try {
      await placeUpstreamOrders(db, ctx)
      await pollUpstreamOrders(db, ctx)
    } catch (err) {
      settings.logger.warn('upstream round failed', errorFields(err))
    }
  }
  const schedule = (ms: number) => {
    clearTimeout(timer)
    if (!stopped) timer = setTimeout(run, ms).unref()
  }
  function run() {
    if (running) {
      again = true
      return
    }
    running = round().finally(() => {
      running = undefined
      schedule(again ? 0 : settings.intervalMs)
      again = false
    })
  }
  run()
  const loop: UpstreamLoop = {
    wake: () => schedule(0),
    stop: async () => {
      stopped = true
      clearTimeout(timer)
      loops.delete(db)
      await running
    },
  }
  loops.set(db, loop)
  return loop
}
