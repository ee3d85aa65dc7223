import { sql, type Kysely } from 'kysely'
import type * as v from 'valibot'
import type {
  PaymentLogPageSchema,
  PaymentLogSchema,
  WalletLogStatus,
} from '../../src/contract/wallet'
import { fromMicros } from '../../src/domain/money'
import type { Database, LocaleCode, UserRow, WalletLogRow } from '../db/schema'
import { LIST_SORTS } from '../../src/contract/constants'
import { listCall, mapPage, type ListQuery } from '../core/paging'
import { dayRange, localDateTime } from './dates'

/*
 * The wallet's history as the customer reads it (docs/api.md, Wallet): every line that moved
 * the balance, with the totals of the wallet page's cards.
 */

export type PaymentLogWire = v.InferInput<typeof PaymentLogSchema>
export type PaymentLogPageWire = v.InferInput<typeof PaymentLogPageSchema>

export const LOGS_PER_PAGE = 10

/** A line as the customer reads it, in `locale` where it was said in each language. */
export function paymentLogWire(
  row: WalletLogRow,
  timeZone: string,
  locale: LocaleCode,
): PaymentLogWire {
  return {
    id: row.id,
    status: row.status,
    name: (locale === 'ar' ? row.name_ar : null) ?? row.name,
    previous_balance: fromMicros(row.previous_balance),
    value: fromMicros(row.value),
    current_balance: fromMicros(row.current_balance),
    currency: row.currency,
    ...localDateTime(row.created_at, timeZone),
    created_at: row.created_at,
  }
}

/** The kind filter: Charged (money in), Discounted (money out), anything else all. */
function kind(status: string | undefined) {
  const wanted = status?.trim().toLowerCase()
  return wanted === 'charged' ? 'Charged' : wanted === 'discounted' ? 'Discounted' : undefined
}

export interface LogQuery extends ListQuery {
  status?: string
  page?: string
  start_date?: string
  end_date?: string
}

/**
 * GET payment-logs: the user's lines newest first, by kind and by day; with the balance and
 * what came in and went out in the wallet's current currency (lines of a currency the wallet
 * has left are not added to it).
 */
export async function listPaymentLogs(
  db: Kysely<Database>,
  user: UserRow,
  query: LogQuery,
  { timeZone, locale }: { timeZone: string; locale: LocaleCode },
): Promise<PaymentLogPageWire> {
  const list = listCall(query, { sorts: LIST_SORTS.paymentLogs, perPage: LOGS_PER_PAGE })
  const status = kind(query.status)
  const { from, to } = dayRange(query, timeZone)
  let base = db.selectFrom('wallet_logs').where('user_id', '=', user.id)
  if (status) base = base.where('status', '=', status)
  if (from) base = base.where('created_at', '>=', from)
  if (to) base = base.where('created_at', '<', to)
  const [page, totals] = await Promise.all([
    list.page(base),
    db
      .selectFrom('wallet_logs')
      .select([
        'status',
        // Summed as text, so the sum is exact on both databases whatever its size.
        sql<string>`cast(sum(value) as text)`.as('sum'),
      ])
      .where('user_id', '=', user.id)
      .where('currency', '=', user.currency)
      .groupBy('status')
      .execute(),
  ])
  const sum = (s: WalletLogStatus) => BigInt(totals.find((r) => r.status === s)?.sum ?? 0)
  return {
    ...mapPage(page, (row) => paymentLogWire(row, timeZone, locale)),
    user: {
      current_balance: fromMicros(user.balance),
      total_shipped: fromMicros(sum('Charged')),
      total_spent: fromMicros(sum('Discounted')),
      currency: user.currency,
    },
  }
}

/** One of the user's lines; another customer's is not found either. */
export function findPaymentLog(db: Kysely<Database>, userId: number, id: number) {
  return db
    .selectFrom('wallet_logs')
    .selectAll()
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst()
}
