import { sql, type CreateTableBuilder } from 'kysely'
import type { Dialect } from '../index'

/**
 * A database-generated integer key: SQLite's rowid alias (AUTOINCREMENT so a deleted id is
 * never handed out again) or a PostgreSQL bigint identity. The only DDL that differs.
 */
export function withId<T extends string>(
  table: CreateTableBuilder<T, never>,
  dialect: Dialect,
): CreateTableBuilder<T, 'id'> {
  return dialect === 'postgres'
    ? table.addColumn('id', 'bigint', (col) => col.primaryKey().generatedByDefaultAsIdentity())
    : table.addColumn('id', 'integer', (col) => col.primaryKey().autoIncrement())
}

/** A table meant to hold exactly one row, id 1: site-wide settings with typed columns. */
export function withSingletonId<T extends string>(
  table: CreateTableBuilder<T, never>,
): CreateTableBuilder<T, 'id'> {
  return table.addColumn('id', 'integer', (col) => col.primaryKey().check(sql`id = 1`))
}
