import { sql, type Kysely } from 'kysely'
import type { Migration } from 'kysely/migration'
import type { Dialect } from '../index'
import { withSingletonId } from './helpers'

/**
 * The tables whose rows make up the public replies (the catalogue and the site content,
 * docs/api.md "Caching"). Any write to them, from any process and by any means (the server,
 * the operator CLI, a maintenance shell), moves `content_version.version` on, so a server can
 * tell with one small read whether the replies it keeps are still current.
 */
export const CONTENT_TABLES = [
  'product_groups',
  'products',
  'product_images',
  'packages',
  'product_additional_services',
  'website_info',
  'slider_images',
  'about_us',
  'about_images',
  'contact_info',
] as const

export function contentVersionMigration(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await withSingletonId(db.schema.createTable('content_version'))
        .addColumn('version', 'bigint', (col) => col.notNull())
        .execute()
      await sql`insert into content_version (id, version) values (1, 1)`.execute(db)
      if (dialect === 'postgres') {
        await sql`
          create function bump_content_version() returns trigger language plpgsql as $$
          begin
            update content_version set version = version + 1 where id = 1;
            return null;
          end
          $$`.execute(db)
        for (const table of CONTENT_TABLES) {
          // Once per statement, truncate included: an import of thousands of rows is one bump.
          await sql`
            create trigger ${sql.raw(`${table}_content_version`)}
            after insert or update or delete or truncate on ${sql.table(table)}
            for each statement execute function bump_content_version()`.execute(db)
        }
        return
      }
      // SQLite has row triggers only; a bump is a one-row update, cheap even for an import.
      for (const table of CONTENT_TABLES) {
        for (const event of ['insert', 'update', 'delete']) {
          await sql`
            create trigger ${sql.raw(`${table}_content_version_${event}`)}
            after ${sql.raw(event)} on ${sql.table(table)}
            begin
              update content_version set version = version + 1 where id = 1;
            end`.execute(db)
        }
      }
    },
    async down(db: Kysely<unknown>) {
      if (dialect === 'postgres') {
        for (const table of CONTENT_TABLES) {
          await sql`drop trigger ${sql.raw(`${table}_content_version`)} on ${sql.table(table)}`.execute(
            db,
          )
        }
        await sql`drop function bump_content_version()`.execute(db)
      } else {
        for (const table of CONTENT_TABLES) {
          for (const event of ['insert', 'update', 'delete']) {
            await sql`drop trigger ${sql.raw(`${table}_content_version_${event}`)}`.execute(db)
          }
        }
      }
      await db.schema.dropTable('content_version').execute()
    },
  }
}
