import { sql, type Kysely } from 'kysely'
import type { Migration } from 'kysely/migration'
import type { Dialect } from '../index'
import { orderFunctionsMigration } from './0012_order_functions'

/**
 * A wallet line said in each language: `name` in English, `name_ar` in Arabic, so the history
 * reads in the language the customer uses when reading it, not the one of the day it was
 * written (docs/api.md, Wallet). A line said in every language (an operator's reason) and
 * the lines written before keep their one text in `name`, with `name_ar` null.
 *
 * PostgreSQL's order function (0012) writes both from the names it is given in each
 * language, where it wrote the one of the user's language.
 */
export function walletLineNamesMigration(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('wallet_logs').addColumn('name_ar', 'text').execute()
      if (dialect !== 'postgres') return
      await sql`
        create or replace function place_orders(
          totals bigint[], user_ids bigint[], currencies text[], names jsonb[], ats text[],
          keys text[], hashes text[], heads text[], order_ids bigint[], order_rows jsonb)
        returns table (n integer, balance bigint) language plpgsql as $$
        #variable_conflict use_column
        declare
          debited_balance bigint;
        begin
          for i in 1 .. coalesce(array_length(user_ids, 1), 0) loop
            update users set balance = users.balance - totals[i]
            where users.id = user_ids[i] and users.balance >= totals[i]
              and users.currency = currencies[i]
            returning users.balance into debited_balance;
            continue when not found;
            insert into orders
            select * from jsonb_populate_record(null::orders, order_rows -> (i - 1));
            insert into wallet_logs (user_id, status, name, name_ar, previous_balance, value,
              current_balance, currency, created_at)
            values (user_ids[i], 'Discounted', names[i] ->> 'en', names[i] ->> 'ar',
              debited_balance + totals[i], totals[i], debited_balance, currencies[i], ats[i]);
            if keys[i] is not null then
              insert into idempotency_keys (user_id, key, request_hash, order_id, reply, created_at)
              values (user_ids[i], keys[i], hashes[i], order_ids[i],
                heads[i] || trim_scale(debited_balance::numeric / 1000000)::text || '}', ats[i]);
            end if;
            n := i;
            balance := debited_balance;
            return next;
          end loop;
        end
        $$`.execute(db)
    },
    async down(db: Kysely<unknown>) {
      if (dialect === 'postgres') {
        // 0012's functions again, as they were.
        const functions = orderFunctionsMigration(dialect)
        await functions.down?.(db)
        await functions.up(db)
      }
      await db.schema.alterTable('wallet_logs').dropColumn('name_ar').execute()
    },
  }
}
