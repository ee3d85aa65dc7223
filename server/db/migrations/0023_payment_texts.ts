import type { Kysely } from 'kysely'
import type { Migration } from 'kysely/migration'

const TEXTS = ['whish_money_text_ar', 'omt_pay_text_ar'] as const
const SWITCHES = ['usdt_on', 'whish_money_on', 'omt_pay_on'] as const

/**
 * The console's payment settings (docs/api.md, Console): each method's text in Arabic beside
 * the English one (`whish_money_text`, `omt_pay_text`), and a switch per method, so a method is
 * turned off without losing its text or addresses. Every method stays on as it was.
 */
export const paymentTextsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    for (const column of TEXTS)
      await db.schema.alterTable('payment_settings').addColumn(column, 'text').execute()
    for (const column of SWITCHES)
      await db.schema
        .alterTable('payment_settings')
        .addColumn(column, 'integer', (col) => col.notNull().defaultTo(1))
        .execute()
  },
  async down(db: Kysely<unknown>) {
    for (const column of [...SWITCHES, ...TEXTS])
      await db.schema.alterTable('payment_settings').dropColumn(column).execute()
  },
}
