import type { Kysely } from 'kysely'
import { canonicalTxHash } from '../adapters/chains/address'
import type { Database } from '../db/schema'

/*
 * The ledger's invariants, checked from the data alone (`npm run operator -- wallet:audit`,
 * the race and crash suites, and anything else that wants to know, such as a backup check):
 *
 * - every wallet's history lines, in order, each adding up (previous + value = current for
 *   money in, previous - value = current for money out) and each starting where the one before
 *   ended, from 0 for the first; no line below zero;
 * - the last line's balance is the account's balance (no lines: a balance of 0), never below 0;
 * - every credited USDT transfer once: each hash in its network's spelling, no transaction
 *   credited as a whole (by hand) and by transfer too, no hash credited on both networks, each
 *   paid request paid by exactly one credited transfer and each credited transfer's request
 *   paid, with its completed top-up of the request's amount.
 */

export interface AuditProblem {
  /** What is wrong, in the operator's words. */
  problem: string
  user_id?: number
  line_id?: number
  request_id?: number
  transfer_id?: number
}

export interface AuditReport {
  ok: boolean
  wallets: number
  lines: number
  transfers: number
  problems: AuditProblem[]
}

/** Wallets read per query: their lines come in one query with them. */
const BATCH = 500

export async function auditWallets(db: Kysely<Database>): Promise<AuditReport> {
  const problems: AuditProblem[] = []
  let wallets = 0
  let lines = 0
  for (let after = 0; ;) {
    const users = await db
      .selectFrom('users')
      .select(['id', 'balance'])
      .where('id', '>', after)
      .orderBy('id')
      .limit(BATCH)
      .execute()
    if (users.length === 0) break
    after = users.at(-1)!.id
    const logs = await db
      .selectFrom('wallet_logs')
      .select(['id', 'user_id', 'status', 'previous_balance', 'value', 'current_balance'])
      .where(
        'user_id',
        'in',
        users.map((u) => u.id),
      )
      .orderBy('user_id')
      .orderBy('id')
      .execute()
    const byUser = Map.groupBy(logs, (line) => line.user_id)
    for (const user of users) {
      wallets++
      let running = 0n
      for (const line of byUser.get(user.id) ?? []) {
        lines++
        const at = { user_id: user.id, line_id: line.id }
        const sign = line.status === 'Charged' ? 1n : -1n
        if (line.value < 0n) problems.push({ ...at, problem: `line of a negative amount` })
        if (line.previous_balance !== running)
          problems.push({
            ...at,
            problem: `line starts at ${line.previous_balance}, the line before ended at ${running}`,
          })
        if (line.previous_balance + sign * line.value !== line.current_balance)
          problems.push({
            ...at,
            problem: `line does not add up: ${line.previous_balance} ${sign > 0n ? '+' : '-'} ${line.value} is not ${line.current_balance}`,
          })
        if (line.current_balance < 0n) problems.push({ ...at, problem: 'line ends below zero' })
        running = line.current_balance
      }
      if (running !== user.balance)
        problems.push({
          user_id: user.id,
          problem: `balance ${user.balance}, the history ends at ${running}`,
        })
      if (user.balance < 0n) problems.push({ user_id: user.id, problem: 'balance below zero' })
    }
  }
  const transfers = await auditTransfers(db, problems)
  return { ok: problems.length === 0, wallets, lines, transfers, problems }
}

/** The credited USDT transfers and the requests they paid; returns how many were looked at. */
async function auditTransfers(db: Kysely<Database>, problems: AuditProblem[]): Promise<number> {
  const credited = await db
    .selectFrom('usdt_transfers')
    .select(['id', 'network', 'tx_hash', 'log_index', 'request_id'])
    .where('outcome', '=', 'CREDITED')
    .orderBy('id')
    .execute()
  const paid = await db
    .selectFrom('usdt_requests')
    .leftJoin('charging_processes', 'charging_processes.id', 'usdt_requests.charging_process_id')
    .select([
      'usdt_requests.id',
      'usdt_requests.unique_amount',
      'charging_processes.value',
      'charging_processes.status as charge_status',
    ])
    .where('usdt_requests.status', '=', 'PAID')
    .execute()
  const paidIds = new Set(paid.map((r) => r.id))

  const byRequest = Map.groupBy(credited, (t) => t.request_id)
  const byTransaction = Map.groupBy(credited, (t) => `${t.network}:${t.tx_hash}`)
  const networksOfHash = new Map<string, Set<string>>()
  for (const t of credited) {
    const at = { transfer_id: t.id, ...(t.request_id === null ? {} : { request_id: t.request_id }) }
    if (canonicalTxHash(t.network, t.tx_hash) !== t.tx_hash)
      problems.push({ ...at, problem: `hash ${t.tx_hash} is not in ${t.network}'s spelling` })
    if (t.request_id === null || !paidIds.has(t.request_id))
      problems.push({ ...at, problem: 'credited transfer without a paid request' })
    const bare = t.tx_hash.replace(/^0x/, '')
    networksOfHash.set(bare, (networksOfHash.get(bare) ?? new Set()).add(t.network))
  }
  for (const [key, group] of byTransaction) {
    if (group.length > 1 && group.some((t) => t.log_index < 0))
      problems.push({
        transfer_id: group[0]!.id,
        problem: `transaction ${key} credited ${group.length} times, at least once as a whole`,
      })
  }
  for (const [bare, networks] of networksOfHash) {
    if (networks.size > 1)
      problems.push({ problem: `transaction ${bare} credited on ${[...networks].join(' and ')}` })
  }
  for (const request of paid) {
    const count = byRequest.get(request.id)?.length ?? 0
    if (count !== 1)
      problems.push({
        request_id: request.id,
        problem: `paid request with ${count} credited transfers`,
      })
    if (request.charge_status !== 'COMPLETED' || request.value !== request.unique_amount)
      problems.push({
        request_id: request.id,
        problem: 'paid request without its completed top-up of the same amount',
      })
  }
  return credited.length
}
