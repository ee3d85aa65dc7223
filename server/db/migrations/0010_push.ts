import { sql, type Kysely } from 'kysely'
import type { Migration } from 'kysely/migration'
import type { Dialect } from '../index'
import { withId } from './helpers'

/**
 * Notifications that open a page, and push: a job per notification, written in the
 * transaction that made the change and sent after it commits (retried, never slowing the
 * change); the push token of each session with when it was last given; and the local outbox
 * of push messages for development and tests.
 */
export function pushMigration(dialect: Dialect): Migration {
  const idType = dialect === 'postgres' ? 'bigint' : 'integer'
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('notifications').addColumn('url', 'text').execute()
      await db.schema.alterTable('notifications').addColumn('tag', 'varchar(64)').execute()
      await db.schema.alterTable('sessions').addColumn('fcm_token_at', 'varchar(32)').execute()

      await withId(db.schema.createTable('push_jobs'), dialect)
        .addColumn('user_id', idType, (col) =>
          col.notNull().references('users.id').onDelete('cascade'),
        )
        // JSON: the message as a browser receives it ({notification, data}).
        .addColumn('message', 'text', (col) => col.notNull())
        .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
        .addColumn('next_at', 'varchar(32)', (col) => col.notNull())
        .addColumn('done_at', 'varchar(32)')
        .addColumn('created_at', 'varchar(32)', (col) => col.notNull())
        .execute()
      await db.schema
        .createIndex('push_jobs_due')
        .on('push_jobs')
        .columns(['done_at', 'next_at'])
        .execute()

      await withId(db.schema.createTable('push_outbox'), dialect)
        .addColumn('user_id', idType, (col) =>
          col.notNull().references('users.id').onDelete('cascade'),
        )
        .addColumn('token', 'text', (col) => col.notNull())
        .addColumn('message', 'text', (col) => col.notNull())
        .addColumn('created_at', 'varchar(32)', (col) => col.notNull())
        .execute()
      await db.schema
        .createIndex('sessions_fcm_token')
        .on('sessions')
        .column('fcm_token')
        .where(sql.ref('fcm_token'), 'is not', null)
        .execute()
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropIndex('sessions_fcm_token').execute()
      await db.schema.dropTable('push_outbox').execute()
      await db.schema.dropTable('push_jobs').execute()
      await db.schema.alterTable('sessions').dropColumn('fcm_token_at').execute()
      await db.schema.alterTable('notifications').dropColumn('tag').execute()
      await db.schema.alterTable('notifications').dropColumn('url').execute()
    },
  }
}
