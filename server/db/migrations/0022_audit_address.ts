import type { Kysely } from 'kysely'
import type { Migration } from 'kysely/migration'

/**
 * Where an audited write came from: the address of the console request that made it (its
 * address key, server/http/client-ip.ts), so the audit log says who, when and from where
 * (docs/api.md, Console). Empty for the CLI's writes and for rows made before. The console
 * filters the log by operator and by action, newest first.
 */
export const auditAddressMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('audit_log').addColumn('address', 'varchar(255)').execute()
    await db.schema
      .createIndex('audit_log_action')
      .on('audit_log')
      .columns(['action', 'id'])
      .execute()
    await db.schema
      .createIndex('audit_log_actor')
      .on('audit_log')
      .columns(['actor', 'id'])
      .execute()
  },
  async down(db: Kysely<unknown>) {
    for (const index of ['audit_log_action', 'audit_log_actor'])
      await db.schema.dropIndex(index).execute()
    await db.schema.alterTable('audit_log').dropColumn('address').execute()
  },
}
