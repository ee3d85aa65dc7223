import { sql, type Kysely } from 'kysely'
import type { Migration } from 'kysely/migration'

/**
 * `account_login`: the item signs in to the customer's game account, so its form asks for the
 * account's e-mail or phone and an optional password. A package's own value, when set, wins
 * over its product's, as for the other purchase fields.
 */
export const accountLoginMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('products')
      .addColumn('account_login', 'integer', (col) =>
        col
          .notNull()
          .defaultTo(0)
          .check(sql`account_login in (0, 1)`),
      )
      .execute()
    await db.schema
      .alterTable('packages')
      .addColumn('account_login', 'integer', (col) => col.check(sql`account_login in (0, 1)`))
      .execute()
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('packages').dropColumn('account_login').execute()
    await db.schema.alterTable('products').dropColumn('account_login').execute()
  },
}
