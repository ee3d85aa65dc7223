import { sql, type Kysely } from 'kysely'
import type { Migration } from 'kysely/migration'
import type { Dialect } from '../index'
import { withId } from './helpers'

/**
 * USDT top-ups: a request per customer payment, identified by its exact amount, and every
 * transfer the chain watchers saw. Three constraints keep money from being credited twice:
 * an amount is held by one request of a network at a time (its reservation, kept until the
 * request's watch window ends), a transfer (network, transaction, log) is recorded once, and a
 * request is paid by one transaction.
 */
export function usdtMigration(dialect: Dialect): Migration {
  const idType = dialect === 'postgres' ? 'bigint' : 'integer'
  return {
    async up(db: Kysely<unknown>) {
      await withId(db.schema.createTable('usdt_requests'), dialect)
        .addColumn('user_id', idType, (col) =>
          col.notNull().references('users.id').onDelete('cascade'),
        )
        .addColumn('network', 'varchar(8)', (col) =>
          col.notNull().check(sql`network in ('trc20', 'bep20')`),
        )
        .addColumn('address', 'varchar(64)', (col) => col.notNull())
        // Micro-USDT: what the customer asked to add, and the exact amount to send.
        .addColumn('amount', 'bigint', (col) => col.notNull().check(sql`amount > 0`))
        .addColumn('unique_amount', 'bigint', (col) => col.notNull())
        .addColumn('tax', 'bigint', (col) => col.notNull().defaultTo(0))
        .addColumn('status', 'varchar(8)', (col) =>
          col
            .notNull()
            .defaultTo('OPEN')
            .check(sql`status in ('OPEN', 'PAID')`),
        )
        .addColumn('expires_at', 'varchar(32)', (col) => col.notNull())
        // Until then a transfer of the amount is still told apart (as late); then the amount
        // may be handed out again.
        .addColumn('watch_until', 'varchar(32)', (col) => col.notNull())
        .addColumn('tx_hash', 'varchar(80)', (col) => col.unique())
        .addColumn('charging_process_id', idType, (col) => col.references('charging_processes.id'))
        .addColumn('paid_at', 'varchar(32)')
        .addColumn('created_at', 'varchar(32)', (col) => col.notNull())
        .execute()
      await db.schema
        .createIndex('usdt_requests_user')
        .on('usdt_requests')
        .columns(['user_id', 'created_at'])
        .execute()
      await db.schema
        .createIndex('usdt_requests_amount')
        .on('usdt_requests')
        .columns(['network', 'unique_amount'])
        .execute()

      await db.schema
        .createTable('usdt_amount_holds')
        .addColumn('network', 'varchar(8)', (col) => col.notNull())
        .addColumn('unique_amount', 'bigint', (col) => col.notNull())
        .addColumn('request_id', idType, (col) =>
          col.notNull().references('usdt_requests.id').onDelete('cascade'),
        )
        .addColumn('watch_until', 'varchar(32)', (col) => col.notNull())
        .addPrimaryKeyConstraint('usdt_amount_holds_pk', ['network', 'unique_amount'])
        .execute()

      await withId(db.schema.createTable('usdt_transfers'), dialect)
        .addColumn('network', 'varchar(8)', (col) => col.notNull())
        .addColumn('tx_hash', 'varchar(80)', (col) => col.notNull())
        .addColumn('log_index', 'integer', (col) => col.notNull())
        .addColumn('from_address', 'varchar(64)', (col) => col.notNull())
        .addColumn('to_address', 'varchar(64)', (col) => col.notNull())
        .addColumn('amount', 'bigint', (col) => col.notNull())
        .addColumn('exact', 'integer', (col) => col.notNull())
        .addColumn('block_number', 'bigint', (col) => col.notNull())
        .addColumn('block_time', 'varchar(32)', (col) => col.notNull())
        // CREDITED; LATE (its request had expired); EXTRA (its request was already paid);
        // UNMATCHED (no request had the amount: a short or a stray transfer); INEXACT (BEP20
        // dust below a micro-USDT, which can never match).
        .addColumn('outcome', 'varchar(12)', (col) =>
          col
            .notNull()
            .check(sql`outcome in ('CREDITED', 'LATE', 'EXTRA', 'UNMATCHED', 'INEXACT')`),
        )
        .addColumn('request_id', idType, (col) => col.references('usdt_requests.id'))
        .addColumn('created_at', 'varchar(32)', (col) => col.notNull())
        .addUniqueConstraint('usdt_transfers_once', ['network', 'tx_hash', 'log_index'])
        .execute()
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('usdt_transfers').execute()
      await db.schema.dropTable('usdt_amount_holds').execute()
      await db.schema.dropTable('usdt_requests').execute()
    },
  }
}
