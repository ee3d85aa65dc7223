import type { Kysely, Selectable } from 'kysely'
import type { UsdtState } from '../../src/contract/console-usdt'
import type { UsdtNetwork } from '../../src/contract/wallet'
import type { Database } from '../db/schema'
import type { UsdtRequestRow, UsdtTransferTable } from '../db/schema-wallet'

/*
 * What the operator reads about USDT payments (docs/api.md, Console: USDT): the requests by
 * state and the transfers that credited nothing, for `payments:list`, `payments:unmatched` and
 * the console's USDT screen alike.
 */

/** A transfer's candidates: requests made this long before it, or a little after. */
const CANDIDATES_BEFORE_MS = 24 * 3600_000
const CANDIDATES_AFTER_MS = 3600_000
const CANDIDATES_PER_TRANSFER = 5

/** A request as its customer sees it: OPEN until its time is over, then EXPIRED. */
export function stateOf(request: UsdtRequestRow, now: Date): UsdtState {
  if (request.status !== 'OPEN') return request.status
  return request.expires_at <= now.toISOString() ? 'EXPIRED' : 'OPEN'
}

/** The requests in a state (any, if none is named), newest first, each with its customer. */
export async function listUsdtRequests(
  db: Kysely<Database>,
  filter: { state?: UsdtState; userId?: number; network?: UsdtNetwork },
  { now, limit }: { now: Date; limit: number },
) {
  const at = now.toISOString()
  let query = db
    .selectFrom('usdt_requests')
    .innerJoin('users', 'users.id', 'usdt_requests.user_id')
    .selectAll('usdt_requests')
    .select('users.username as username')
  if (filter.userId !== undefined) query = query.where('usdt_requests.user_id', '=', filter.userId)
  if (filter.network !== undefined)
    query = query.where('usdt_requests.network', '=', filter.network)
  if (filter.state === 'PAID') query = query.where('usdt_requests.status', '=', 'PAID')
  else if (filter.state === 'OPEN')
    query = query
      .where('usdt_requests.status', '=', 'OPEN')
      .where('usdt_requests.expires_at', '>', at)
  else if (filter.state === 'EXPIRED')
    query = query.where((eb) =>
      eb.or([
        eb('usdt_requests.status', '=', 'EXPIRED'),
        eb.and([eb('usdt_requests.status', '=', 'OPEN'), eb('usdt_requests.expires_at', '<=', at)]),
      ]),
    )
  const rows = await query.orderBy('usdt_requests.id', 'desc').limit(limit).execute()
  return rows.map((row) => ({ ...row, state: stateOf(row, now) }))
}

export type UnmatchedTransfer = Selectable<UsdtTransferTable> & {
  /** Unpaid requests of its network for the same amount (exact or as asked), around its time. */
  candidates: (UsdtRequestRow & { username: string; state: UsdtState })[]
}

/** Transfers the watchers recorded but did not credit (late, extra, stray, inexact), newest first. */
export async function unmatchedTransfers(
  db: Kysely<Database>,
  { now, limit }: { now: Date; limit: number },
): Promise<UnmatchedTransfer[]> {
  const transfers = await db
    .selectFrom('usdt_transfers')
    .selectAll()
    .where('outcome', '!=', 'CREDITED')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute()
  return Promise.all(
    transfers.map(async (transfer) => {
      const time = Date.parse(transfer.block_time)
      const rows = await db
        .selectFrom('usdt_requests')
        .innerJoin('users', 'users.id', 'usdt_requests.user_id')
        .selectAll('usdt_requests')
        .select('users.username as username')
        .where('usdt_requests.network', '=', transfer.network)
        .where('usdt_requests.status', '!=', 'PAID')
        .where((eb) =>
          eb.or([
            eb('usdt_requests.unique_amount', '=', transfer.amount),
            eb('usdt_requests.amount', '=', transfer.amount),
          ]),
        )
        .where(
          'usdt_requests.created_at',
          '>=',
          new Date(time - CANDIDATES_BEFORE_MS).toISOString(),
        )
        .where('usdt_requests.created_at', '<=', new Date(time + CANDIDATES_AFTER_MS).toISOString())
        .orderBy('usdt_requests.id', 'desc')
        .limit(CANDIDATES_PER_TRANSFER)
        .execute()
      return { ...transfer, candidates: rows.map((r) => ({ ...r, state: stateOf(r, now) })) }
    }),
  )
}
