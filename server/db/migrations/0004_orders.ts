import { sql, type Kysely } from 'kysely'
import type { Migration } from 'kysely/migration'
import type { Dialect } from '../index'
import { withId } from './helpers'

/**
 * Orders, the idempotency keys of the order call, notifications and verified player numbers.
 * Orders keep product and package ids without foreign keys: `catalogue:import` deletes and
 * re-inserts the catalogue, and an order must outlive the row it was bought from.
 */
export function ordersMigration(dialect: Dialect): Migration {
  const idType = dialect === 'postgres' ? 'bigint' : 'integer'
  return {
    async up(db: Kysely<unknown>) {
      await withId(db.schema.createTable('orders'), dialect)
        .addColumn('user_id', idType, (col) =>
          col.notNull().references('users.id').onDelete('cascade'),
        )
        .addColumn('product_id', 'bigint', (col) => col.notNull())
        .addColumn('package_id', 'bigint')
        .addColumn('number', 'integer', (col) => col.notNull())
        .addColumn('product_name_en', 'varchar(200)', (col) => col.notNull())
        .addColumn('product_name_ar', 'varchar(200)', (col) => col.notNull())
        .addColumn('package_name_en', 'varchar(200)')
        .addColumn('package_name_ar', 'varchar(200)')
        .addColumn('product_image', 'text')
        .addColumn('product_reference', 'text')
        .addColumn('provider_package_id', 'bigint')
        .addColumn('quantity', 'bigint', (col) => col.notNull().check(sql`quantity > 0`))
        .addColumn('unit_price', 'bigint', (col) => col.notNull().check(sql`unit_price >= 0`))
        .addColumn('total_price', 'bigint', (col) => col.notNull().check(sql`total_price >= 0`))
        .addColumn('currency', 'varchar(3)', (col) =>
          col.notNull().check(sql`currency in ('USD', 'LBP')`),
        )
        .addColumn('status', 'varchar(16)', (col) =>
          col
            .notNull()
            .defaultTo('WAITING')
            .check(sql`status in ('WAITING', 'COMPLETED', 'CANCELED', 'FAILED')`),
        )
        .addColumn('refuse_reason', 'text')
        .addColumn('accept_note', 'text')
        .addColumn('item_codes', 'text', (col) => col.notNull().defaultTo('[]'))
        .addColumn('expiry_date', 'varchar(32)')
        .addColumn('player_name', 'varchar(255)')
        .addColumn('player_number', 'varchar(255)')
        .addColumn('service_type', 'varchar(50)')
        .addColumn('social_link', 'text')
        .addColumn('wallet_address', 'varchar(255)')
        .addColumn('email_or_phone_number', 'varchar(255)')
        .addColumn('password', 'varchar(255)')
        .addColumn('contact_number', 'varchar(255)')
        .addColumn('requirements', 'text', (col) => col.notNull().defaultTo('{}'))
        .addColumn('provider_ref', 'varchar(255)')
        .addColumn('created_at', 'varchar(32)', (col) => col.notNull())
        .addColumn('updated_at', 'varchar(32)', (col) => col.notNull())
        .execute()
      // The orders page: a user's orders newest first, by status and date.
      await db.schema
        .createIndex('orders_user_created')
        .on('orders')
        .columns(['user_id', 'created_at'])
        .execute()
      // The status refresh and the operator's list look for open orders.
      await db.schema.createIndex('orders_status').on('orders').columns(['status', 'id']).execute()

      await db.schema
        .createTable('idempotency_keys')
        .addColumn('user_id', idType, (col) =>
          col.notNull().references('users.id').onDelete('cascade'),
        )
        .addColumn('key', 'varchar(100)', (col) => col.notNull())
        .addColumn('request_hash', 'varchar(64)', (col) => col.notNull())
        .addColumn('order_id', idType, (col) => col.references('orders.id').onDelete('cascade'))
        .addColumn('reply', 'text')
        .addColumn('created_at', 'varchar(32)', (col) => col.notNull())
        .addPrimaryKeyConstraint('idempotency_keys_pk', ['user_id', 'key'])
        .execute()

      await withId(db.schema.createTable('notifications'), dialect)
        .addColumn('user_id', idType, (col) =>
          col.notNull().references('users.id').onDelete('cascade'),
        )
        .addColumn('title', 'text', (col) => col.notNull())
        .addColumn('description', 'text', (col) => col.notNull())
        .addColumn('created_at', 'varchar(32)', (col) => col.notNull())
        .addColumn('read_at', 'varchar(32)')
        .execute()
      await db.schema
        .createIndex('notifications_user_created')
        .on('notifications')
        .columns(['user_id', 'created_at'])
        .execute()

      await withId(db.schema.createTable('player_numbers'), dialect)
        .addColumn('user_id', idType, (col) =>
          col.notNull().references('users.id').onDelete('cascade'),
        )
        .addColumn('product_id', 'bigint', (col) => col.notNull())
        .addColumn('player_number', 'varchar(255)', (col) => col.notNull())
        .addColumn('player_name', 'varchar(255)', (col) => col.notNull())
        .addColumn('verified_at', 'varchar(32)', (col) => col.notNull())
        .addUniqueConstraint('player_numbers_unique', ['user_id', 'product_id', 'player_number'])
        .execute()
    },

    async down(db: Kysely<unknown>) {
      for (const table of ['player_numbers', 'notifications', 'idempotency_keys', 'orders']) {
        await db.schema.dropTable(table).execute()
      }
    },
  }
}
