import { AsyncLocalStorage } from 'node:async_hooks'
import type { Kysely } from 'kysely'
import type { Database } from '../db/schema'
import { queryPage, type PageRequest } from '../core/paging'
import { currentRequestId } from '../log'
import { dayRange } from './dates'

export interface AuditEntry {
  actor: string
  action: string
  user?: { id: number; username: string } | undefined
  /** What it changed: `before` and `after` where there is a state to compare, and the why. */
  details?: Record<string, unknown>
  now: Date
}

/**
 * Where the writes of a console request come from (its address key): set around each console
 * call by server/http/console-auth.ts, so every line it audits says from where.
 */
export const auditOrigin = new AsyncLocalStorage<{ address: string | null }>()

/** One line of the operators' trail. Call it in the transaction of the change it records. */
export async function recordAudit(db: Kysely<Database>, entry: AuditEntry): Promise<void> {
  await db
    .insertInto('audit_log')
    .values({
      actor: entry.actor,
      action: entry.action,
      user_id: entry.user?.id ?? null,
      username: entry.user?.username ?? null,
      details: JSON.stringify(entry.details ?? {}),
      created_at: entry.now.toISOString(),
      request_id: currentRequestId(),
      address: auditOrigin.getStore()?.address?.slice(0, 255) ?? null,
    })
    .execute()
}

export interface AuditFilter {
  /** An actor as written (`console:ana`, a system user), or a console operator's username. */
  actor?: string | undefined
  action?: string | undefined
  /** The account it was about: its user id. */
  userId?: number | undefined
  /** Days in the store's time zone, both included. */
  start_date?: string | undefined
  end_date?: string | undefined
}

/**
 * The trail newest first, filtered (audit:list and GET admin/audit); details parsed. A name
 * the filter gives is matched exactly: the console offers the actors and actions there are.
 */
export async function listAudit(
  db: Kysely<Database>,
  filter: AuditFilter,
  request: PageRequest,
  timeZone: string,
) {
  let base = db.selectFrom('audit_log')
  if (filter.actor) base = base.where('actor', 'in', [filter.actor, `console:${filter.actor}`])
  if (filter.action) base = base.where('action', '=', filter.action)
  if (filter.userId !== undefined) base = base.where('user_id', '=', filter.userId)
  const { from, to } = dayRange(filter, timeZone)
  if (from) base = base.where('created_at', '>=', from)
  if (to) base = base.where('created_at', '<', to)
  const page = await queryPage(base, request, (q) => q.selectAll().orderBy('id', 'desc'))
  return {
    ...page,
    data: page.data.map((row) => ({
      ...row,
      details: JSON.parse(row.details) as Record<string, unknown>,
    })),
  }
}

/** The actors and actions the trail holds, for the console's filters. */
export async function auditChoices(db: Kysely<Database>) {
  const [actors, actions] = await Promise.all([
    db.selectFrom('audit_log').select('actor').distinct().orderBy('actor').execute(),
    db.selectFrom('audit_log').select('action').distinct().orderBy('action').execute(),
  ])
  return { actors: actors.map((r) => r.actor), actions: actions.map((r) => r.action) }
}
