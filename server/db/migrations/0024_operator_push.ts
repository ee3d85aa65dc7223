import type { Kysely } from 'kysely'
import type { Migration } from 'kysely/migration'
import type { Dialect } from '../index'
import { withId } from './helpers'

/**
 * The operators' alerts by push (docs/api.md, Console: Alerts): the push token of each console
 * session with when it was given and the console's language on that device; a job per alert
 * (a new receipt, a transfer that matched nothing) for every operator's devices, sent as the
 * customers' pushes are (services/push.ts); and the local sender's outbox for them.
 */
export function operatorPushMigration(dialect: Dialect): Migration {
  const idType = dialect === 'postgres' ? 'bigint' : 'integer'
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('operator_sessions').addColumn('fcm_token', 'text').execute()
      await db.schema
        .alterTable('operator_sessions')
        .addColumn('fcm_token_at', 'varchar(32)')
        .execute()
      await db.schema
        .alterTable('operator_sessions')
        .addColumn('fcm_locale', 'varchar(8)')
        .execute()
      await withId(db.schema.createTable('operator_push_jobs'), dialect)
        // JSON: the message in each language ({en, ar}), as a browser receives it.
        .addColumn('message', 'text', (col) => col.notNull())
        .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
        .addColumn('next_at', 'varchar(32)', (col) => col.notNull())
        .addColumn('done_at', 'varchar(32)')
        .addColumn('created_at', 'varchar(32)', (col) => col.notNull())
        .addColumn('request_id', 'varchar(255)')
        .execute()
      await db.schema
        .createIndex('operator_push_jobs_due')
        .on('operator_push_jobs')
        .columns(['done_at', 'next_at'])
        .execute()
      await withId(db.schema.createTable('operator_push_outbox'), dialect)
        .addColumn('operator_id', idType, (col) =>
          col.notNull().references('operators.id').onDelete('cascade'),
        )
        .addColumn('token', 'text', (col) => col.notNull())
        .addColumn('message', 'text', (col) => col.notNull())
        .addColumn('created_at', 'varchar(32)', (col) => col.notNull())
        .execute()
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('operator_push_outbox').execute()
      await db.schema.dropTable('operator_push_jobs').execute()
      for (const column of ['fcm_locale', 'fcm_token_at', 'fcm_token'])
        await db.schema.alterTable('operator_sessions').dropColumn(column).execute()
    },
  }
}
