import { sql, type Kysely } from 'kysely'
import type { Migration } from 'kysely/migration'
import type { Dialect } from '../index'
import { withId, withSingletonId } from './helpers'

/**
 * Money in: the payment methods the operator offers, charging processes (top-ups with their
 * receipts), and promo codes with their redemptions. A code is redeemed once per customer
 * (a unique pair) and never more often than it allows (a check on its count).
 */
export function walletMigration(dialect: Dialect): Migration {
  const idType = dialect === 'postgres' ? 'bigint' : 'integer'
  const money = (col: string) => sql`${sql.ref(col)} >= 0`
  return {
    async up(db: Kysely<unknown>) {
      await withSingletonId(db.schema.createTable('payment_settings'))
        .addColumn('usdt_trc20', 'text')
        .addColumn('usdt_bep20', 'text')
        .addColumn('whish_money_text', 'text')
        .addColumn('omt_pay_text', 'text')
        // Millionths of a percent (2.5 % is 2,500,000), like the catalogue's percentages.
        .addColumn('usdt_tax', 'bigint', (col) =>
          col.notNull().defaultTo(0).check(money('usdt_tax')),
        )
        .addColumn('whish_money_tax', 'bigint', (col) =>
          col.notNull().defaultTo(0).check(money('whish_money_tax')),
        )
        .addColumn('omt_pay_tax', 'bigint', (col) =>
          col.notNull().defaultTo(0).check(money('omt_pay_tax')),
        )
        .addColumn('updated_at', 'varchar(32)', (col) => col.notNull())
        .execute()

      await withId(db.schema.createTable('promo_codes'), dialect)
        .addColumn('code', 'varchar(64)', (col) => col.notNull())
        .addColumn('code_key', 'varchar(64)', (col) => col.notNull().unique())
        .addColumn('value', 'bigint', (col) => col.notNull().check(sql`value > 0`))
        .addColumn('currency', 'varchar(3)', (col) =>
          col.notNull().check(sql`currency in ('USD', 'LBP')`),
        )
        .addColumn('uses_allowed', 'integer', (col) => col.notNull().check(sql`uses_allowed >= 1`))
        .addColumn('uses', 'integer', (col) =>
          col
            .notNull()
            .defaultTo(0)
            .check(sql`uses >= 0 and uses <= uses_allowed`),
        )
        .addColumn('expires_at', 'varchar(32)')
        .addColumn('created_at', 'varchar(32)', (col) => col.notNull())
        .execute()

      await withId(db.schema.createTable('charging_processes'), dialect)
        .addColumn('user_id', idType, (col) =>
          col.notNull().references('users.id').onDelete('cascade'),
        )
        .addColumn('name', 'varchar(16)', (col) =>
          col.notNull().check(sql`name in ('WHISH_MONEY', 'OMT_PAY', 'PROMO_CODE', 'USDT')`),
        )
        .addColumn('value', 'bigint', (col) => col.notNull().check(sql`value > 0`))
        .addColumn('tax', 'bigint', (col) => col.notNull().defaultTo(0).check(money('tax')))
        .addColumn('shipping_value', 'bigint', (col) =>
          col.notNull().check(money('shipping_value')),
        )
        .addColumn('currency', 'varchar(3)', (col) =>
          col.notNull().check(sql`currency in ('USD', 'LBP')`),
        )
        .addColumn('status', 'varchar(16)', (col) =>
          col
            .notNull()
            .defaultTo('WAITING')
            .check(sql`status in ('WAITING', 'COMPLETED', 'CANCELED')`),
        )
        .addColumn('reject_reason', 'text')
        .addColumn('receipt_file', 'varchar(100)')
        .addColumn('promo_code_id', idType, (col) => col.references('promo_codes.id'))
        .addColumn('created_at', 'varchar(32)', (col) => col.notNull())
        .addColumn('updated_at', 'varchar(32)', (col) => col.notNull())
        .addColumn('decided_at', 'varchar(32)')
        .execute()
      await db.schema
        .createIndex('charging_processes_user')
        .on('charging_processes')
        .columns(['user_id', 'created_at'])
        .execute()
      await db.schema
        .createIndex('charging_processes_status')
        .on('charging_processes')
        .columns(['status', 'created_at'])
        .execute()

      await db.schema
        .createTable('promo_redemptions')
        .addColumn('promo_code_id', idType, (col) =>
          col.notNull().references('promo_codes.id').onDelete('cascade'),
        )
        .addColumn('user_id', idType, (col) =>
          col.notNull().references('users.id').onDelete('cascade'),
        )
        .addColumn('charging_process_id', idType, (col) =>
          col.notNull().references('charging_processes.id').onDelete('cascade'),
        )
        .addColumn('created_at', 'varchar(32)', (col) => col.notNull())
        .addPrimaryKeyConstraint('promo_redemptions_pk', ['promo_code_id', 'user_id'])
        .execute()
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('promo_redemptions').execute()
      await db.schema.dropTable('charging_processes').execute()
      await db.schema.dropTable('promo_codes').execute()
      await db.schema.dropTable('payment_settings').execute()
    },
  }
}
