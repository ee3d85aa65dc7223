import { sql, type Kysely } from 'kysely'
import type { Migration } from 'kysely/migration'
import type { Dialect } from '../index'
import { withId } from './helpers'

/**
 * Upstream panels (docs/api.md, Upstream panels): other stores' SMM panel API v2 that a
 * package's orders are bought from. A panel's key is sealed as the API tokens are. A package
 * maps to at most one upstream service (its primary key). An order has at most one upstream
 * attempt (UNIQUE order_id), written before the call, so no retry, second server or restart
 * can place it twice; one of a panel's orders belongs to one of ours (UNIQUE panel, upstream
 * id). A Partial's refund of the remains is one row per order (its primary key).
 */
export function upstreamMigration(dialect: Dialect): Migration {
  const idType = dialect === 'postgres' ? 'bigint' : 'integer'
  return {
    async up(db: Kysely<unknown>) {
      await withId(db.schema.createTable('upstream_panels'), dialect)
        .addColumn('name', 'varchar(64)', (col) => col.notNull().unique())
        .addColumn('url', 'varchar(500)', (col) => col.notNull())
        .addColumn('key_sealed', 'text', (col) => col.notNull())
        .addColumn('created_at', 'varchar(32)', (col) => col.notNull())
        .execute()
      await db.schema
        .createTable('upstream_services')
        .addColumn('package_id', idType, (col) => col.primaryKey())
        .addColumn('panel_id', idType, (col) => col.notNull().references('upstream_panels.id'))
        .addColumn('service', 'varchar(32)', (col) => col.notNull())
        .addColumn('created_at', 'varchar(32)', (col) => col.notNull())
        .execute()
      await withId(db.schema.createTable('upstream_orders'), dialect)
        .addColumn('order_id', idType, (col) => col.notNull().unique().references('orders.id'))
        .addColumn('panel_id', idType, (col) => col.notNull().references('upstream_panels.id'))
        .addColumn('service', 'varchar(32)', (col) => col.notNull())
        .addColumn('state', 'varchar(16)', (col) =>
          col
            .notNull()
            .check(sql`state in ('sending', 'retry', 'placed', 'refused', 'unknown', 'closed')`),
        )
        .addColumn('attempts', 'integer', (col) => col.notNull())
        .addColumn('next_at', 'varchar(32)')
        .addColumn('upstream_id', 'varchar(64)')
        .addColumn('upstream_status', 'varchar(32)')
        .addColumn('charge', 'varchar(32)')
        .addColumn('start_count', 'varchar(32)')
        .addColumn('remains', 'varchar(32)')
        .addColumn('reason', 'text')
        .addColumn('created_at', 'varchar(32)', (col) => col.notNull())
        .addColumn('updated_at', 'varchar(32)', (col) => col.notNull())
        .addUniqueConstraint('upstream_orders_panel_order', ['panel_id', 'upstream_id'])
        .execute()
      await db.schema
        .createIndex('upstream_orders_state')
        .on('upstream_orders')
        .columns(['state', 'panel_id'])
        .execute()
      await db.schema
        .createTable('order_partials')
        .addColumn('order_id', idType, (col) => col.primaryKey().references('orders.id'))
        .addColumn('remains', 'integer', (col) => col.notNull().check(sql`remains > 0`))
        .addColumn('amount', 'bigint', (col) => col.notNull().check(sql`amount >= 0`))
        .addColumn('currency', 'varchar(3)', (col) => col.notNull())
        .addColumn('created_at', 'varchar(32)', (col) => col.notNull())
        .execute()
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('order_partials').execute()
      await db.schema.dropTable('upstream_orders').execute()
      await db.schema.dropTable('upstream_services').execute()
      await db.schema.dropTable('upstream_panels').execute()
    },
  }
}
