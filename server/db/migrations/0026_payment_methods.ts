import { sql, type Kysely } from 'kysely'
import type { Migration } from 'kysely/migration'
import type { Dialect } from '../index'

/** The methods of the time, with their columns in payment_settings (0007, 0023). */
const METHODS = [
  { method: 'USDT', key: 'usdt', texts: false },
  { method: 'WHISH_MONEY', key: 'whish_money', texts: true },
  { method: 'OMT_PAY', key: 'omt_pay', texts: true },
] as const
const NAME_CHECK = /check \(name in \([^)]*\)\)/i

/**
 * Payment methods as rows (src/contract/payment-methods.ts): each method's switch, texts and
 * tax move from payment_settings' columns (`whish_money_on`, `whish_money_text`...) to a row
 * of payment_methods, so a new method is an entry in that list and no migration. A top-up's
 * method, a list in a CHECK until now, must be one of its rows (a foreign key); codes have a
 * row too. payment_settings keeps the USDT addresses.
 *
 * SQLite cannot change a column's CHECK, so charging_processes is rebuilt from its own
 * definition, with foreign keys off while the tables that point at it are re-pointed.
 */
export function paymentMethodsMigration(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('payment_methods')
        .addColumn('method', 'varchar(16)', (col) => col.primaryKey())
        .addColumn('offered', 'integer', (col) => col.notNull().defaultTo(1))
        .addColumn('text', 'text')
        .addColumn('text_ar', 'text')
        .addColumn('tax', 'bigint', (col) =>
          col
            .notNull()
            .defaultTo(0)
            .check(sql`tax >= 0`),
        )
        .addColumn('updated_at', 'varchar(32)', (col) => col.notNull())
        .execute()
      const now = new Date().toISOString()
      const row = (
        await sql<Record<string, unknown>>`select * from payment_settings where id = 1`.execute(db)
      ).rows[0]
      const at = (row?.updated_at as string | undefined) ?? now
      await db
        .insertInto('payment_methods' as never)
        .values([
          ...METHODS.map(({ method, key, texts }) => ({
            method,
            offered: row?.[`${key}_on`] ?? 1,
            text: texts ? (row?.[`${key}_text`] ?? null) : null,
            text_ar: texts ? (row?.[`${key}_text_ar`] ?? null) : null,
            tax: row?.[`${key}_tax`] ?? 0,
            updated_at: at,
          })),
          { method: 'PROMO_CODE', offered: 1, text: null, text_ar: null, tax: 0, updated_at: at },
        ] as never)
        .execute()
      for (const { key, texts } of METHODS)
        for (const column of [
          `${key}_on`,
          `${key}_tax`,
          ...(texts ? [`${key}_text`, `${key}_text_ar`] : []),
        ])
          await db.schema.alterTable('payment_settings').dropColumn(column).execute()

      if (dialect === 'postgres') {
        await sql`alter table charging_processes drop constraint charging_processes_name_check`.execute(
          db,
        )
        await sql`alter table charging_processes add constraint charging_processes_method
          foreign key (name) references payment_methods (method)`.execute(db)
      } else
        await rebuildCharges(db, (create) =>
          create.replace(NAME_CHECK, 'references "payment_methods" ("method")'),
        )
    },
    async down(db: Kysely<unknown>) {
      const list = sql.raw(`check (name in ('WHISH_MONEY', 'OMT_PAY', 'PROMO_CODE', 'USDT'))`)
      if (dialect === 'postgres') {
        await sql`alter table charging_processes drop constraint charging_processes_method`.execute(
          db,
        )
        await sql`alter table charging_processes add constraint charging_processes_name_check ${list}`.execute(
          db,
        )
      } else
        await rebuildCharges(db, (create) =>
          create.replace(
            /references "payment_methods" \("method"\)/,
            `check (name in ('WHISH_MONEY', 'OMT_PAY', 'PROMO_CODE', 'USDT'))`,
          ),
        )
      const rows = await sql<{
        method: string
        offered: number
        text: string | null
        text_ar: string | null
        tax: number
      }>`select * from payment_methods`.execute(db)
      for (const { key, texts } of METHODS) {
        const alter = () => db.schema.alterTable('payment_settings')
        await alter()
          .addColumn(`${key}_on`, 'integer', (col) => col.notNull().defaultTo(1))
          .execute()
        await alter()
          .addColumn(`${key}_tax`, 'bigint', (col) =>
            col
              .notNull()
              .defaultTo(0)
              .check(sql`${sql.ref(`${key}_tax`)} >= 0`),
          )
          .execute()
        if (texts) {
          await alter().addColumn(`${key}_text`, 'text').execute()
          await alter().addColumn(`${key}_text_ar`, 'text').execute()
        }
      }
      for (const r of rows.rows) {
        const m = METHODS.find((m) => m.method === r.method)
        if (!m) continue
        await db
          .updateTable('payment_settings' as never)
          .set({
            [`${m.key}_on`]: r.offered,
            [`${m.key}_tax`]: r.tax,
            ...(m.texts ? { [`${m.key}_text`]: r.text, [`${m.key}_text_ar`]: r.text_ar } : {}),
          } as never)
          .execute()
      }
      await db.schema.dropTable('payment_methods').execute()
    },
  }
}

/** SQLite: charging_processes made again from its definition as `edit` changes it. */
async function rebuildCharges(db: Kysely<unknown>, edit: (create: string) => string) {
  const schema = await sql<{ type: string; name: string; sql: string | null }>`
    select type, name, sql from sqlite_master where tbl_name = 'charging_processes'`.execute(db)
  const table = schema.rows.find((r) => r.type === 'table')!.sql!
  const changed = edit(table)
  if (changed === table) throw new Error('charging_processes: the method column was not found')
  const indexes = schema.rows.filter((r) => r.type === 'index' && r.sql !== null)
  await sql`pragma foreign_keys = off`.execute(db)
  try {
    await db.transaction().execute(async (trx) => {
      await sql
        .raw(
          changed.replace(
            /^CREATE TABLE "?charging_processes"?/i,
            'create table "charging_processes_new"',
          ),
        )
        .execute(trx)
      await sql`insert into charging_processes_new select * from charging_processes`.execute(trx)
      await sql`drop table charging_processes`.execute(trx)
      await sql`alter table charging_processes_new rename to charging_processes`.execute(trx)
      for (const index of indexes) await sql.raw(index.sql!).execute(trx)
      const broken = await sql`pragma foreign_key_check`.execute(trx)
      if (broken.rows.length > 0) throw new Error('foreign keys broken by the rebuild')
    })
  } finally {
    await sql`pragma foreign_keys = on`.execute(db)
  }
}
