import { sql, type Kysely } from 'kysely'
import type { Migration } from 'kysely/migration'
import type { Dialect } from '../index'

/**
 * PostgreSQL only: the two writes of every order as functions, so that the statements calling
 * them can be named (db/named-statements.ts) and be neither parsed nor planned again each
 * time. A named statement keeps a generic plan, made without its values; written as one
 * statement over arrays (`update … from unnest(…)`), that plan may scan a table whole (the
 * hand-over's scanned the orders table once it outgrew the size it was planned at). In a
 * function, each order's rows are found by their primary key, one at a time: a plan that
 * cannot go wrong with the tables' size. How an order is placed: docs/architecture.md, Orders.
 */
export function orderFunctionsMigration(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      if (dialect !== 'postgres') return
      // Several orders, in one transaction, one after the other: the guarded debit (nothing
      // when the balance is short or the currency is not the one it was priced in), then, for a
      // debited order only, the order (a whole row as JSON, typed by the table: a column the
      // server does not send gets NULL, not its default), its wallet line (named in the user's
      // language) and its Idempotency-Key with the reply, whose balance is written from the
      // debit's as an exact decimal. Returns the debited orders: their place in the arrays
      // (from 1) and the new balance. A taken key or any other error undoes all.
      await sql`
        create function place_orders(
          totals bigint[], user_ids bigint[], currencies text[], names jsonb[], ats text[],
          keys text[], hashes text[], heads text[], order_ids bigint[], order_rows jsonb)
        returns table (n integer, balance bigint) language plpgsql as $$
        #variable_conflict use_column
        declare
          debited_balance bigint;
          debited_locale text;
        begin
          for i in 1 .. coalesce(array_length(user_ids, 1), 0) loop
            update users set balance = users.balance - totals[i]
            where users.id = user_ids[i] and users.balance >= totals[i]
              and users.currency = currencies[i]
            returning users.balance, users.locale into debited_balance, debited_locale;
            continue when not found;
            insert into orders
            select * from jsonb_populate_record(null::orders, order_rows -> (i - 1));
            insert into wallet_logs (user_id, status, name, previous_balance, value,
              current_balance, currency, created_at)
            values (user_ids[i], 'Discounted',
              coalesce(names[i] ->> debited_locale, names[i] ->> 'en'),
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
      // The provider's answers to several orders. `is true` keeps the planner off the status
      // index: statistics from a time with few WAITING orders make it look cheap, and it then
      // reads every WAITING order.
      await sql`
        create function record_hand_overs(ids bigint[], refs text[], statuses text[], ats text[])
        returns void language plpgsql as $$
        begin
          for i in 1 .. coalesce(array_length(ids, 1), 0) loop
            update orders set provider_ref = refs[i], status = statuses[i], updated_at = ats[i]
            where id = ids[i] and (status = 'WAITING') is true;
          end loop;
        end
        $$`.execute(db)
    },
    async down(db: Kysely<unknown>) {
      if (dialect !== 'postgres') return
      await sql`drop function record_hand_overs(bigint[], text[], text[], text[])`.execute(db)
      await sql`
        drop function place_orders(bigint[], bigint[], text[], jsonb[], text[], text[], text[],
          text[], bigint[], jsonb)`.execute(db)
    },
  }
}
