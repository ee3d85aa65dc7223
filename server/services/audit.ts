import type { Kysely } from 'kysely'
import type { Database } from '../db/schema'
import { currentRequestId } from '../log'

export interface AuditEntry {
  actor: string
  action: string
  user?: { id: number; username: string } | undefined
  details?: Record<string, unknown>
  now: Date
}

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
    })
    .execute()
}
