import type { Kysely } from 'kysely'
import type { Migration } from 'kysely/migration'

/**
 * API tokens: `api_token_hash` (SHA-256 of the token, hex) finds a token's account with one
 * indexed query; `api_token`, unused until now, holds from here on the token encrypted with
 * the server's key (services/api-tokens.ts), so its owner can see it again; `ip_whitelist`
 * keeps the addresses it may be used from. Whatever an earlier version or a hand edit left in
 * `api_token` would be plain text: it is cleared rather than read as a sealed copy.
 */
export const apiTokensMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('users').addColumn('api_token_hash', 'varchar(64)').execute()
    // Unique: one token opens one account. NULLs (no token) do not collide on either database.
    await db.schema
      .createIndex('users_api_token_hash')
      .on('users')
      .column('api_token_hash')
      .unique()
      .execute()
    await db
      .withTables<{ users: { api_token: string | null; ip_whitelist: string | null } }>()
      .updateTable('users')
      .set({ api_token: null, ip_whitelist: null })
      .execute()
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('users_api_token_hash').execute()
    await db.schema.alterTable('users').dropColumn('api_token_hash').execute()
  },
}
