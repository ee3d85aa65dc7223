import { sql, type Kysely } from 'kysely'
import type { Migration } from 'kysely/migration'
import type { Dialect } from '../index'
import { withId } from './helpers'

/** Users, sessions, verification codes and their throttling, the outbox, wallet logs. */
export function accountsMigration(dialect: Dialect): Migration {
  // Foreign keys match the referenced identity: bigint on PostgreSQL, integer on SQLite.
  const idType = dialect === 'postgres' ? 'bigint' : 'integer'
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('settings')
        .addColumn('key', 'varchar(100)', (col) => col.primaryKey())
        .addColumn('value', 'text', (col) => col.notNull())
        .execute()

      await withId(db.schema.createTable('users'), dialect)
        .addColumn('username', 'varchar(50)', (col) => col.notNull())
        .addColumn('username_key', 'varchar(50)', (col) => col.notNull().unique())
        .addColumn('phone_number', 'varchar(20)', (col) => col.notNull().unique())
        .addColumn('email', 'varchar(254)', (col) => col.unique())
        .addColumn('password_hash', 'text', (col) => col.notNull())
        .addColumn('type', 'varchar(16)', (col) =>
          col
            .notNull()
            .defaultTo('CUSTOMER')
            .check(sql`type in ('COMPANY', 'CUSTOMER')`),
        )
        .addColumn('currency', 'varchar(3)', (col) =>
          col
            .notNull()
            .defaultTo('USD')
            .check(sql`currency in ('USD', 'LBP')`),
        )
        .addColumn('locale', 'varchar(2)', (col) =>
          col
            .notNull()
            .defaultTo('en')
            .check(sql`locale in ('en', 'ar')`),
        )
        .addColumn('balance', 'bigint', (col) =>
          col
            .notNull()
            .defaultTo(0)
            .check(sql`balance >= 0`),
        )
        .addColumn('new_notifications_count', 'integer', (col) => col.notNull().defaultTo(0))
        .addColumn('api_token', 'text')
        .addColumn('ip_whitelist', 'text')
        .addColumn('created_at', 'varchar(32)', (col) => col.notNull())
        .execute()

      await withId(db.schema.createTable('sessions'), dialect)
        .addColumn('user_id', idType, (col) =>
          col.notNull().references('users.id').onDelete('cascade'),
        )
        .addColumn('token_hash', 'varchar(64)', (col) => col.notNull().unique())
        .addColumn('fcm_token', 'text')
        .addColumn('created_at', 'varchar(32)', (col) => col.notNull())
        .addColumn('last_used_at', 'varchar(32)', (col) => col.notNull())
        .addColumn('revoked_at', 'varchar(32)')
        .execute()
      await db.schema.createIndex('sessions_user_id').on('sessions').column('user_id').execute()

      await withId(db.schema.createTable('verification_codes'), dialect)
        .addColumn('purpose', 'varchar(16)', (col) =>
          col.notNull().check(sql`purpose in ('signup', 'login', 'reset')`),
        )
        .addColumn('recipient', 'varchar(254)', (col) => col.notNull())
        .addColumn('code_hash', 'varchar(64)', (col) => col.notNull())
        .addColumn('ip', 'varchar(64)')
        .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
        .addColumn('created_at', 'varchar(32)', (col) => col.notNull())
        .addColumn('expires_at', 'varchar(32)', (col) => col.notNull())
        .addColumn('consumed_at', 'varchar(32)')
        .execute()
      // The hourly caps count by recipient and by address; clean-up deletes by age.
      await db.schema
        .createIndex('verification_codes_recipient')
        .on('verification_codes')
        .columns(['recipient', 'created_at'])
        .execute()
      await db.schema
        .createIndex('verification_codes_ip')
        .on('verification_codes')
        .columns(['ip', 'created_at'])
        .execute()
      await db.schema
        .createIndex('verification_codes_created_at')
        .on('verification_codes')
        .column('created_at')
        .execute()

      await db.schema
        .createTable('code_throttle')
        .addColumn('key', 'varchar(300)', (col) => col.primaryKey())
        .addColumn('failures', 'integer', (col) => col.notNull().defaultTo(0))
        .addColumn('locked_until', 'varchar(32)')
        .addColumn('updated_at', 'varchar(32)', (col) => col.notNull())
        .execute()

      await withId(db.schema.createTable('outbox'), dialect)
        .addColumn('channel', 'varchar(16)', (col) => col.notNull())
        .addColumn('recipient', 'varchar(254)', (col) => col.notNull())
        .addColumn('purpose', 'varchar(16)', (col) => col.notNull())
        .addColumn('code', 'varchar(16)')
        .addColumn('body', 'text', (col) => col.notNull())
        .addColumn('created_at', 'varchar(32)', (col) => col.notNull())
        .execute()
      await db.schema.createIndex('outbox_recipient').on('outbox').column('recipient').execute()

      await withId(db.schema.createTable('wallet_logs'), dialect)
        .addColumn('user_id', idType, (col) =>
          col.notNull().references('users.id').onDelete('cascade'),
        )
        .addColumn('status', 'varchar(16)', (col) =>
          col.notNull().check(sql`status in ('Discounted', 'Charged')`),
        )
        .addColumn('name', 'text', (col) => col.notNull())
        .addColumn('previous_balance', 'bigint', (col) => col.notNull())
        .addColumn('value', 'bigint', (col) => col.notNull())
        .addColumn('current_balance', 'bigint', (col) => col.notNull())
        .addColumn('currency', 'varchar(3)', (col) =>
          col.notNull().check(sql`currency in ('USD', 'LBP')`),
        )
        .addColumn('created_at', 'varchar(32)', (col) => col.notNull())
        .execute()
      // The wallet page lists a user's logs newest first, filtered by date.
      await db.schema
        .createIndex('wallet_logs_user_created')
        .on('wallet_logs')
        .columns(['user_id', 'created_at'])
        .execute()
    },

    async down(db: Kysely<unknown>) {
      for (const table of [
        'wallet_logs',
        'outbox',
        'code_throttle',
        'verification_codes',
        'sessions',
        'users',
        'settings',
      ]) {
        await db.schema.dropTable(table).execute()
      }
    },
  }
}
