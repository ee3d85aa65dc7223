import { sql, type Kysely } from 'kysely'
import type { Migration } from 'kysely/migration'
import type { Dialect } from '../index'
import { withId } from './helpers'

/**
 * The operator console's accounts (docs/api.md, Console): operators apart from customers, with
 * their role, a password, a TOTP secret kept sealed, recovery codes kept as keyed hashes (each
 * used once: `used_at` is set by one guarded UPDATE), and their own sessions, which customers'
 * tokens never find. `totp_step` is the last time step whose code signed in: a code is never
 * accepted twice (the UPDATE that moves it on is guarded by a smaller step).
 */
export function operatorsMigration(dialect: Dialect): Migration {
  const idType = dialect === 'postgres' ? 'bigint' : 'integer'
  return {
    async up(db: Kysely<unknown>) {
      await withId(db.schema.createTable('operators'), dialect)
        .addColumn('username', 'varchar(50)', (col) => col.notNull())
        .addColumn('username_key', 'varchar(200)', (col) => col.notNull().unique())
        .addColumn('role', 'varchar(16)', (col) =>
          col.notNull().check(sql`role in ('owner', 'operator')`),
        )
        .addColumn('password_hash', 'text', (col) => col.notNull())
        .addColumn('totp_sealed', 'text')
        .addColumn('totp_step', 'bigint')
        .addColumn('created_at', 'varchar(32)', (col) => col.notNull())
        .addColumn('disabled_at', 'varchar(32)')
        .execute()
      await withId(db.schema.createTable('operator_recovery_codes'), dialect)
        .addColumn('operator_id', idType, (col) =>
          col.notNull().references('operators.id').onDelete('cascade'),
        )
        .addColumn('code_hash', 'varchar(64)', (col) => col.notNull().unique())
        .addColumn('used_at', 'varchar(32)')
        .execute()
      await db.schema
        .createIndex('operator_recovery_codes_operator')
        .on('operator_recovery_codes')
        .column('operator_id')
        .execute()
      await withId(db.schema.createTable('operator_sessions'), dialect)
        .addColumn('operator_id', idType, (col) =>
          col.notNull().references('operators.id').onDelete('cascade'),
        )
        .addColumn('token_hash', 'varchar(64)', (col) => col.notNull().unique())
        .addColumn('address', 'varchar(64)', (col) => col.notNull())
        .addColumn('created_at', 'varchar(32)', (col) => col.notNull())
        .addColumn('last_used_at', 'varchar(32)', (col) => col.notNull())
        .addColumn('revoked_at', 'varchar(32)')
        .execute()
      await db.schema
        .createIndex('operator_sessions_operator')
        .on('operator_sessions')
        .column('operator_id')
        .execute()
    },
    async down(db: Kysely<unknown>) {
      for (const table of ['operator_sessions', 'operator_recovery_codes', 'operators'])
        await db.schema.dropTable(table).execute()
    },
  }
}
