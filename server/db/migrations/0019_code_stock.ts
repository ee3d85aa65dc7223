import { sql, type Kysely } from 'kysely'
import type { Migration } from 'kysely/migration'
import type { Dialect } from '../index'
import { withId } from './helpers'

/**
 * The code stock (docs/api.md, Code stock): codes bought in bulk, one row each, sealed
 * (AES-256-GCM, as the API tokens are) with a keyed hash of their canonical form that is
 * UNIQUE, so the same code is never kept twice. A row names at most one order: a code is
 * delivered once by construction, whatever runs at the same time. A withdrawn code is never
 * delivered (the CHECK). On PostgreSQL, claim_stock hands an order its codes in the statement
 * that places it (services/order-ledger.ts).
 */
export function codeStockMigration(dialect: Dialect): Migration {
  const idType = dialect === 'postgres' ? 'bigint' : 'integer'
  return {
    async up(db: Kysely<unknown>) {
      await withId(db.schema.createTable('stock_codes'), dialect)
        // No foreign key: a package removed from the catalogue keeps its delivered codes' rows.
        .addColumn('package_id', idType, (col) => col.notNull())
        .addColumn('code_sealed', 'text', (col) => col.notNull())
        .addColumn('code_hash', 'varchar(64)', (col) => col.notNull().unique())
        .addColumn('expires_on', 'varchar(10)')
        .addColumn('created_at', 'varchar(32)', (col) => col.notNull())
        .addColumn('order_id', idType, (col) => col.references('orders.id'))
        .addColumn('delivered_at', 'varchar(32)')
        .addColumn('withdrawn_at', 'varchar(32)')
        .addCheckConstraint(
          'stock_codes_withdrawn_undelivered',
          sql`withdrawn_at is null or order_id is null`,
        )
        .execute()
      // The next available codes of a package, in the order they were imported.
      await db.schema
        .createIndex('stock_codes_available')
        .on('stock_codes')
        .columns(['package_id', 'id'])
        .where(sql.ref('order_id'), 'is', null)
        .where(sql.ref('withdrawn_at'), 'is', null)
        .execute()
      await db.schema
        .createIndex('stock_codes_package')
        .on('stock_codes')
        .column('package_id')
        .execute()
      await db.schema
        .createIndex('stock_codes_order')
        .on('stock_codes')
        .column('order_id')
        .execute()
      // Per package with stock: its own low-stock threshold (null: the configured default), and
      // when the operator was told it is low (cleared by an import), so that is said once.
      await db.schema
        .createTable('stock_settings')
        .addColumn('package_id', idType, (col) => col.primaryKey())
        .addColumn('low_at', 'integer', (col) => col.check(sql`low_at >= 0`))
        .addColumn('low_noticed_at', 'varchar(32)')
        .execute()
      if (dialect !== 'postgres') return
      // Called once per placed order, in the statement that placed it (after the order's row is
      // in): the package's next available unexpired codes for the order's quantity, locked
      // (another transaction's locked codes are skipped, never waited for), given to the order,
      // which is then COMPLETED; fewer than the quantity: nothing is taken and the order goes
      // on as it would without stock.
      await sql`
        create function claim_stock(claiming bigint, at text)
        returns boolean language plpgsql as $$
        declare
          pkg bigint;
          qty integer;
          free bigint[];
        begin
          select package_id, quantity into pkg, qty from orders where id = claiming;
          if pkg is null then
            return false;
          end if;
          select array_agg(id) into free from (
            select id from stock_codes
            where package_id = pkg and order_id is null and withdrawn_at is null
              and (expires_on is null or expires_on >= left(at, 10))
            order by id limit qty
            for update skip locked) next_codes;
          if coalesce(cardinality(free), 0) < qty then
            return false;
          end if;
          update stock_codes set order_id = claiming, delivered_at = at
          where id = any(free) and order_id is null;
          update orders set status = 'COMPLETED', updated_at = at,
            expiry_date = (select min(expires_on) from stock_codes where id = any(free))
          where id = claiming;
          return true;
        end
        $$`.execute(db)
    },
    async down(db: Kysely<unknown>) {
      if (dialect === 'postgres') await sql`drop function claim_stock(bigint, text)`.execute(db)
      await db.schema.dropTable('stock_settings').execute()
      await db.schema.dropTable('stock_codes').execute()
    },
  }
}
