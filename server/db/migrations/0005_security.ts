import { sql, type Kysely } from 'kysely'
import type { Migration } from 'kysely/migration'
import { usernameKey } from '../../core/username-key'
import type { Dialect } from '../index'
import { withId } from './helpers'

/**
 * Accounts an operator can switch off, the operators' audit log, failed sign-in and code
 * attempts kept one row each (sliding windows per account, per address and per both), fixed
 * window request counters for the rate limits, indexes to prune expired sessions, and
 * usernames keyed by their confusable skeleton instead of their lower-case form.
 */
export function securityMigration(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('users').addColumn('disabled_at', 'varchar(32)').execute()

      await rekeyUsernames(db, dialect)

      await db.schema
        .createIndex('sessions_last_used_at')
        .on('sessions')
        .column('last_used_at')
        .execute()
      await db.schema
        .createIndex('sessions_created_at')
        .on('sessions')
        .column('created_at')
        .execute()

      await withId(db.schema.createTable('audit_log'), dialect)
        .addColumn('actor', 'varchar(100)', (col) => col.notNull())
        .addColumn('action', 'varchar(50)', (col) => col.notNull())
        // No foreign key: the trail outlives whatever it is about.
        .addColumn('user_id', dialect === 'postgres' ? 'bigint' : 'integer')
        .addColumn('username', 'varchar(50)')
        .addColumn('details', 'text', (col) => col.notNull().defaultTo('{}'))
        .addColumn('created_at', 'varchar(32)', (col) => col.notNull())
        .execute()
      await db.schema
        .createIndex('audit_log_user')
        .on('audit_log')
        .columns(['user_id', 'created_at'])
        .execute()

      await withId(db.schema.createTable('auth_failures'), dialect)
        .addColumn('kind', 'varchar(16)', (col) =>
          col.notNull().check(sql`kind in ('login', 'code')`),
        )
        // login: `user:<username key>` or `phone:<E.164>`; code: the recipient.
        .addColumn('identity', 'varchar(300)', (col) => col.notNull())
        // The client address, IPv6 by its /64 ('' when unknown).
        .addColumn('address', 'varchar(64)', (col) => col.notNull())
        // 1 once the right password or code came from the same address: it no longer counts
        // against that address, but still against the account as a whole.
        .addColumn('cleared', 'integer', (col) => col.notNull().defaultTo(0))
        .addColumn('created_at', 'varchar(32)', (col) => col.notNull())
        .execute()
      await db.schema
        .createIndex('auth_failures_identity')
        .on('auth_failures')
        .columns(['kind', 'identity', 'created_at'])
        .execute()
      await db.schema
        .createIndex('auth_failures_address')
        .on('auth_failures')
        .columns(['kind', 'address', 'created_at'])
        .execute()
      await db.schema
        .createIndex('auth_failures_created_at')
        .on('auth_failures')
        .column('created_at')
        .execute()

      await db.schema
        .createTable('rate_limits')
        .addColumn('key', 'varchar(300)', (col) => col.primaryKey())
        .addColumn('window_start', 'varchar(32)', (col) => col.notNull())
        .addColumn('hits', 'integer', (col) => col.notNull())
        .execute()
      await db.schema
        .createIndex('rate_limits_window_start')
        .on('rate_limits')
        .column('window_start')
        .execute()

      // The sign-in counters lived here before auth_failures; nothing reads them any more.
      await sql`delete from code_throttle where key like 'login:%'`.execute(db)
    },

    async down(db: Kysely<unknown>) {
      for (const table of ['rate_limits', 'auth_failures', 'audit_log']) {
        await db.schema.dropTable(table).execute()
      }
      await db.schema.dropIndex('sessions_created_at').execute()
      await db.schema.dropIndex('sessions_last_used_at').execute()
      await db.schema.alterTable('users').dropColumn('disabled_at').execute()
    },
  }
}

/**
 * Recomputes every username key. Two existing accounts may now share a key (their names look
 * alike): the older keeps it, the newer gets `<key>#<id>`, which no typed name produces, so it
 * signs in by phone number until an operator renames it.
 */
async function rekeyUsernames(db: Kysely<unknown>, dialect: Dialect) {
  if (dialect === 'postgres') {
    // Skeletons can be longer than the names (one character may become two or three).
    await sql`alter table users alter column username_key type varchar(200)`.execute(db)
  }
  const rows = await sql<{ id: number | bigint; username: string }>`
    select id, username from users order by id
  `.execute(db)
  if (rows.rows.length === 0) return
  // Out of the way first, so no new key collides with an old one not yet rewritten.
  await sql`update users set username_key = '#' || cast(id as varchar(20))`.execute(db)
  const taken = new Set<string>()
  for (const row of rows.rows) {
    let key = usernameKey(row.username)
    if (taken.has(key)) key = `${key}#${row.id}`
    taken.add(key)
    await sql`update users set username_key = ${key} where id = ${row.id}`.execute(db)
  }
}
