import type { Kysely } from 'kysely'
import type { Migration } from 'kysely/migration'

/**
 * A promo code an operator has switched off (docs/api.md, Console: promo codes): from then on
 * it redeems no more, and its uses so far stay on record.
 */
export const promoDisabledMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('promo_codes').addColumn('disabled_at', 'varchar(32)').execute()
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('promo_codes').dropColumn('disabled_at').execute()
  },
}
