import type { Kysely } from 'kysely'
import type * as v from 'valibot'
import type { TodayReplySchema, TopUpQueueReplySchema } from '../../src/contract/console'
import { fromMicros } from '../../src/domain/money'
import type { Database } from '../db/schema'
import { chargeWire } from './charging'
import { localDateTime, dayStart } from './dates'
import { stockCounts } from './stock'

/*
 * What the console reads (docs/api.md, Console): the day's counts and the top-ups queue.
 * Decisions go through the services the CLI's commands call (services/charging.ts).
 */

type TodayWire = v.InferInput<typeof TodayReplySchema>['data']
type QueueWire = v.InferInput<typeof TopUpQueueReplySchema>['data']

/** How many of a customer's earlier top-ups the queue shows beside a receipt. */
export const QUEUE_HISTORY = 5
/** The most receipts the queue lists at once. */
export const QUEUE_LIMIT = 50

const count = (row: { n: number | string | bigint } | undefined) => Number(row?.n ?? 0)

/** The counts of the Today screen; "today" is the store's day (STORE_TIME_ZONE). */
export async function todayCounts(
  db: Kysely<Database>,
  { now, timeZone, defaultLowAt }: { now: Date; timeZone: string; defaultLowAt: number },
): Promise<TodayWire> {
  const since = dayStart(localDateTime(now, timeZone).date, timeZone)
  const ordersIn = (status: 'WAITING' | 'FAILED') =>
    db
      .selectFrom('orders')
      .where('status', '=', status)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirst()
      .then(count)
  const [waitingTopUps, waitingOrders, failedHandOvers, unmatched, stock, sales, topUps] =
    await Promise.all([
      db
        .selectFrom('charging_processes')
        .where('status', '=', 'WAITING')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirst()
        .then(count),
      ordersIn('WAITING'),
      ordersIn('FAILED'),
      db
        .selectFrom('usdt_transfers')
        .where('outcome', '!=', 'CREDITED')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirst()
        .then(count),
      stockCounts(db, { now, defaultLowAt }),
      db
        .selectFrom('orders')
        .where('created_at', '>=', since)
        .where('status', '!=', 'CANCELED')
        .select((eb) => [
          'currency',
          eb.fn.sum<bigint>('total_price').as('total'),
          eb.fn.countAll<number>().as('n'),
        ])
        .groupBy('currency')
        .orderBy('currency')
        .execute(),
      db
        .selectFrom('charging_processes')
        .where('decided_at', '>=', since)
        .where('status', '=', 'COMPLETED')
        .select((eb) => [
          'currency',
          eb.fn.sum<bigint>('shipping_value').as('total'),
          eb.fn.countAll<number>().as('n'),
        ])
        .groupBy('currency')
        .orderBy('currency')
        .execute(),
    ])
  const totals = (
    rows: { currency: 'USD' | 'LBP'; total: bigint | string; n: number | string }[],
  ) =>
    rows.map((r) => ({
      currency: r.currency,
      amount: fromMicros(BigInt(r.total)),
      count: Number(r.n),
    }))
  return {
    waiting_top_ups: waitingTopUps,
    waiting_orders: waitingOrders,
    failed_hand_overs: failedHandOvers,
    unmatched_transfers: unmatched,
    low_stock: stock.length === 0 ? null : stock.filter((s) => s.low).length,
    sales: totals(sales),
    top_ups: totals(topUps),
  }
}

/** The waiting receipts, oldest first, each with its customer and their last top-ups. */
export async function topUpQueue(
  db: Kysely<Database>,
  { timeZone }: { timeZone: string },
): Promise<QueueWire> {
  const rows = await db
    .selectFrom('charging_processes')
    .innerJoin('users', 'users.id', 'charging_processes.user_id')
    .selectAll('charging_processes')
    .select([
      'users.username as customer_username',
      'users.phone_number as customer_phone',
      'users.balance as balance',
      'users.currency as customer_currency',
    ])
    .where('charging_processes.status', '=', 'WAITING')
    .orderBy('charging_processes.created_at')
    .orderBy('charging_processes.id')
    .limit(QUEUE_LIMIT)
    .execute()
  const userIds = [...new Set(rows.map((r) => r.user_id))]
  const histories = new Map(
    await Promise.all(
      userIds.map(
        async (userId) =>
          [
            userId,
            await db
              .selectFrom('charging_processes')
              .select(['id', 'name', 'value', 'currency', 'status', 'created_at'])
              .where('user_id', '=', userId)
              .where('status', '!=', 'WAITING')
              .orderBy('created_at', 'desc')
              .orderBy('id', 'desc')
              .limit(QUEUE_HISTORY)
              .execute(),
          ] as const,
      ),
    ),
  )
  return rows.map((row) => {
    const { customer_username, customer_phone, balance, customer_currency, ...charge } = row
    return {
      ...chargeWire(charge, timeZone),
      image: charge.receipt_file ? `/api/admin/top-ups/${charge.id}/receipt` : null,
      customer: {
        id: charge.user_id,
        username: customer_username,
        phone_number: customer_phone,
        balance: fromMicros(balance),
        currency: customer_currency,
        history: (histories.get(charge.user_id) ?? []).map((h) => ({
          id: h.id,
          name: h.name,
          value: fromMicros(h.value),
          currency: h.currency,
          status: h.status,
          created_at: h.created_at,
        })),
      },
    }
  })
}
