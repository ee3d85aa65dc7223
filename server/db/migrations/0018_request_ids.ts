import type { Kysely } from 'kysely'
import type { Migration } from 'kysely/migration'

const TABLES = ['audit_log', 'outbox', 'push_jobs'] as const

/**
 * The request (X-Request-Id, the `requestId` of its log lines) or operator command that made
 * an audit row, an outbox message or a push job, so each can be traced to its log lines
 * (docs/architecture.md, Logs). Empty for rows made before, or by no request.
 */
export const requestIdsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    for (const table of TABLES)
      await db.schema.alterTable(table).addColumn('request_id', 'varchar(255)').execute()
  },
  async down(db: Kysely<unknown>) {
    for (const table of TABLES) await db.schema.alterTable(table).dropColumn('request_id').execute()
  },
}
