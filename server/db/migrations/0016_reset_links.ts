import type { Kysely } from 'kysely'
import type { Migration } from 'kysely/migration'
import type { Dialect } from '../index'
import { withId } from './helpers'

/**
 * Password-reset links: each reset e-mail carries, beside its 4-digit code, a link with a long
 * random token (services/reset-links.ts). Only the token's SHA-256 is kept, with when it
 * expires and when it was used; using it is one conditional UPDATE, so a token resets once
 * however many requests carry it at the same time.
 */
export function resetLinksMigration(dialect: Dialect): Migration {
  const idType = dialect === 'postgres' ? 'bigint' : 'integer'
  return {
    async up(db: Kysely<unknown>) {
      await withId(db.schema.createTable('reset_links'), dialect)
        .addColumn('user_id', idType, (col) =>
          col.notNull().references('users.id').onDelete('cascade'),
        )
        .addColumn('token_hash', 'varchar(64)', (col) => col.notNull().unique())
        .addColumn('created_at', 'varchar(32)', (col) => col.notNull())
        .addColumn('expires_at', 'varchar(32)', (col) => col.notNull())
        .addColumn('used_at', 'varchar(32)')
        .execute()
      // A reset ends the account's other links; clean-up deletes by age.
      await db.schema.createIndex('reset_links_user').on('reset_links').column('user_id').execute()
      await db.schema
        .createIndex('reset_links_expires_at')
        .on('reset_links')
        .column('expires_at')
        .execute()
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('reset_links').execute()
    },
  }
}
