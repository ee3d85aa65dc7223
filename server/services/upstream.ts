import type { Kysely } from 'kysely'
import pLimit from 'p-limit'
import {
  createV2Client,
  V2Refused,
  V2Unreached,
  type V2Client,
  type V2Status,
} from '../adapters/smm-v2'
import type { Database, LocaleCode, OrderRow, UpstreamState } from '../db/schema'
import { inTransaction } from '../db/transaction'
import { t } from '../i18n'
import { errorFields, type Logger } from '../log'
import { seal, serverKey, unseal } from './api-tokens'
import { cancelOrder, completeOrder, OPEN_STATUSES, partialOrder } from './order-status'
import { storedAnswers } from './purchase-terms'

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
 * 3. placed orders are asked about in batches (status with `orders=`) and their answer applied
 *    as the operator's commands do (services/order-status.ts): Completed completes, Canceled
 *    cancels and refunds, Partial completes and refunds the remains (partialOrder), anything
 *    else waits.
 */

const SEAL_INFO = 'wallet-store upstream key v1'
const associated = (name: string) => `upstream:${name}`

/** Attempts at a panel that cannot be reached before the order is left to the operator. */
const MAX_UNREACHED = 6
/** The wait before attempt n + 1 at an unreachable panel: 5 s, 10 s, 20 s... at most 10 min. */
export const retryDelayMs = (attempts: number) => Math.min(5_000 * 2 ** (attempts - 1), 600_000)
/** Orders placed per round, and calls to panels at once. */
const PLACE_BATCH = 50
const CONCURRENT_CALLS = 4
/** Ids per status call, as panels take them. */
const STATUS_BATCH = 100

// ---- panels and mappings --------------------------------------------------------------------

export interface PanelRow {
  id: number
  name: string
  url: string
  key_sealed: string
}

export async function addPanel(
  db: Kysely<Database>,
  secret: string | undefined,
  { name, url, key }: { name: string; url: string; key: string },
  now: Date,
): Promise<number> {
  const sealKey = await serverKey(db, secret, SEAL_INFO)
  const row = await db
    .insertInto('upstream_panels')
    .values({
      name,
      url,
      key_sealed: seal(sealKey, associated(name), key),
      created_at: now.toISOString(),
    })
    .onConflict((oc) => oc.column('name').doNothing())
    .returning('id')
    .executeTakeFirst()
  if (!row) throw new Error(`a panel named ${name} already exists`)
  return row.id
}

export function findPanel(db: Kysely<Database>, name: string): Promise<PanelRow | undefined> {
  return db
    .selectFrom('upstream_panels')
    .select(['id', 'name', 'url', 'key_sealed'])
    .where('name', '=', name)
    .executeTakeFirst()
}

export interface UpstreamSettings {
  tokenSecret: string | undefined
  timeoutMs: number
  fetch?: typeof fetch
}

/** A client of the panel, its key unsealed. */
export async function panelClient(
  db: Kysely<Database>,
  panel: PanelRow,
  settings: UpstreamSettings,
): Promise<V2Client> {
  const key = unseal(
    await serverKey(db, settings.tokenSecret, SEAL_INFO),
    associated(panel.name),
    panel.key_sealed,
  )
  if (key === null) throw new Error(`the key of panel ${panel.name} is sealed under another secret`)
  return createV2Client({ url: panel.url, key }, settings)
}

/** Maps a package to a panel's service (a new mapping replaces the old one). */
export async function mapPackage(
  db: Kysely<Database>,
  { packageId, panelId, service }: { packageId: number; panelId: number; service: string },
  now: Date,
): Promise<void> {
  await db
    .insertInto('upstream_services')
    .values({ package_id: packageId, panel_id: panelId, service, created_at: now.toISOString() })
    .onConflict((oc) =>
      oc
        .column('package_id')
        .doUpdateSet({ panel_id: panelId, service, created_at: now.toISOString() }),
    )
    .execute()
}

export async function unmapPackage(db: Kysely<Database>, packageId: number): Promise<boolean> {
  const done = await db
    .deleteFrom('upstream_services')
    .where('package_id', '=', packageId)
    .executeTakeFirst()
  return Number(done.numDeletedRows) > 0
}

/** Whether a package's orders go to an upstream panel (checkout hands them to nobody else). */
export async function isUpstreamPackage(db: Kysely<Database>, packageId: number | null) {
  if (packageId === null) return false
  const row = await db
    .selectFrom('upstream_services')
    .select('package_id')
    .where('package_id', '=', packageId)
    .executeTakeFirst()
  return row !== undefined
}

/**
 * Each package that has stock or an upstream, and its chain of fulfilment: the stock (while it
 * has codes), then the upstream panel's service, then the operator by hand.
 */
export async function fulfilmentChains(db: Kysely<Database>, now: Date) {
  const today = now.toISOString().slice(0, 10)
  const [mapped, stocked] = await Promise.all([
    db
      .selectFrom('upstream_services')
      .innerJoin('upstream_panels', 'upstream_panels.id', 'upstream_services.panel_id')
      .select(['package_id', 'upstream_panels.name as panel', 'service'])
      .execute(),
    db
      .selectFrom('stock_codes')
      .select(['package_id', (eb) => eb.fn.countAll<number>().as('available')])
      .where('order_id', 'is', null)
      .where('withdrawn_at', 'is', null)
      .where((eb) => eb.or([eb('expires_on', 'is', null), eb('expires_on', '>=', today)]))
      .groupBy('package_id')
      .execute(),
  ])
  const ids = [
    ...new Set([...mapped.map((m) => m.package_id), ...stocked.map((s) => s.package_id)]),
  ]
  if (ids.length === 0) return []
  const names = await db
    .selectFrom('packages')
    .innerJoin('products', 'products.id', 'packages.product_id')
    .select(['packages.id', 'packages.name_en', 'products.name_en as product'])
    .where('packages.id', 'in', ids)
    .execute()
  return ids
    .sort((a, b) => a - b)
    .map((id) => {
      const name = names.find((n) => n.id === id)
      const upstream = mapped.find((m) => m.package_id === id)
      const available = Number(stocked.find((s) => s.package_id === id)?.available ?? 0)
      return {
        package_id: id,
        name: name ? `${name.product} / ${name.name_en}` : '(not in the catalogue)',
        chain: [
          ...(available > 0 ? [`stock (${available})`] : []),
          ...(upstream ? [`${upstream.panel} service ${upstream.service}`] : []),
          'by hand',
        ],
      }
    })
}

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

export interface UpstreamContext extends UpstreamSettings {
  lbpRate: number
  now: Date
  logger?: Logger
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

const panelColumns = [
  'upstream_panels.id as panel_id',
  'upstream_panels.name as panel_name',
  'upstream_panels.url as panel_url',
  'upstream_panels.key_sealed as panel_key',
] as const

const panelOf = (r: {
  panel_id: number
  panel_name: string
  panel_url: string
  panel_key: string
}) => ({
  id: r.panel_id,
  name: r.panel_name,
  url: r.panel_url,
  key_sealed: r.panel_key,
})

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

// ---- status ---------------------------------------------------------------------------------

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
