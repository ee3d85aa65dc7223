import { sql, type Kysely } from 'kysely'
import type { Migration } from 'kysely/migration'
import { canonicalTxHash } from '../../adapters/chains/address'
import type { Dialect } from '../index'

/*
 * USDT money paths held by the database (docs/architecture.md, "USDT top-ups"):
 *
 * - A transfer is (network, canonical hash, log index), with the hash in its network's one
 *   spelling (no `0x` on TRC20, `0x` + 64 lower-case hex on BEP20) checked by the table, so
 *   `0x9f0c...` and `9f0c...` are one key. Stored hashes are rewritten to that spelling; two
 *   rows that become one transfer (the same transaction confirmed twice by hand, under two
 *   spellings) are both kept, the later with another negative log index, for `wallet:audit`
 *   to report: money already credited twice is the operator's to correct, not a migration's.
 * - A request is no longer "paid by one transaction" (a batch payout pays several requests
 *   in one transaction): one credited transfer per request instead (a partial unique index).
 * - One open request per customer (a partial unique index); a request replaced by a newer
 *   one after its time is over becomes EXPIRED. Extra open requests made before this
 *   migration (by parallel calls) are expired now, the newest kept.
 *
 * SQLite cannot drop a column's UNIQUE nor change a CHECK, so its two tables are rebuilt, with
 * foreign keys off while the referencing tables point at a table being replaced.
 */
export function usdtConstraintsMigration(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      if (dialect === 'postgres') await postgresUp(db)
      else await sqliteUp(db)
    },
    // A step back allows what the code before it writes again; the hashes keep their one spelling,
    // and requests keep no unique transaction (two may share a batch payout's).
    async down(db: Kysely<unknown>) {
      await sql`drop index usdt_requests_one_open`.execute(db)
      await sql`drop index usdt_transfers_credit_once`.execute(db)
      await sql`update usdt_requests set status = 'OPEN' where status = 'EXPIRED'`.execute(db)
      if (dialect === 'postgres') {
        await sql`alter table usdt_transfers drop constraint usdt_transfers_canonical_hash`.execute(
          db,
        )
        await sql`alter table usdt_requests drop constraint usdt_requests_status_check`.execute(db)
        await sql`alter table usdt_requests add constraint usdt_requests_status_check
          check (status in ('OPEN', 'PAID'))`.execute(db)
      }
    },
  }
}

const STATUS_CHECK = sql`status in ('OPEN', 'EXPIRED', 'PAID')`

async function postgresUp(db: Kysely<unknown>) {
  // (Absent after a step down and up again: see down.)
  await sql`alter table usdt_requests drop constraint if exists usdt_requests_tx_hash_key`.execute(
    db,
  )
  await sql`alter table usdt_requests drop constraint usdt_requests_status_check`.execute(db)
  await sql`alter table usdt_requests add constraint usdt_requests_status_check check (${STATUS_CHECK})`.execute(
    db,
  )
  await canonicalise(db)
  await sql`alter table usdt_transfers add constraint usdt_transfers_canonical_hash check (
    (network = 'trc20' and tx_hash ~ '^[0-9a-f]{64}$')
    or (network = 'bep20' and tx_hash ~ '^0x[0-9a-f]{64}$'))`.execute(db)
  await constrain(db)
}

async function sqliteUp(db: Kysely<unknown>) {
  await sql`pragma foreign_keys = off`.execute(db)
  try {
    await db.transaction().execute(async (trx) => {
      await sql`create table usdt_requests_new (
        "id" integer primary key autoincrement,
        "user_id" integer not null references "users" ("id") on delete cascade,
        "network" varchar(8) not null check (network in ('trc20', 'bep20')),
        "address" varchar(64) not null,
        "amount" bigint not null check (amount > 0),
        "unique_amount" bigint not null,
        "tax" bigint default 0 not null,
        "status" varchar(8) default 'OPEN' not null check (${STATUS_CHECK}),
        "expires_at" varchar(32) not null,
        "watch_until" varchar(32) not null,
        "tx_hash" varchar(80),
        "charging_process_id" integer references "charging_processes" ("id"),
        "paid_at" varchar(32),
        "created_at" varchar(32) not null)`.execute(trx)
      await sql`insert into usdt_requests_new select * from usdt_requests`.execute(trx)
      await sql`drop table usdt_requests`.execute(trx)
      await sql`alter table usdt_requests_new rename to usdt_requests`.execute(trx)
      await sql`create index usdt_requests_user on usdt_requests (user_id, created_at)`.execute(trx)
      await sql`create index usdt_requests_amount on usdt_requests (network, unique_amount)`.execute(
        trx,
      )

      await sql`create table usdt_transfers_new (
        "id" integer primary key autoincrement,
        "network" varchar(8) not null,
        "tx_hash" varchar(80) not null check (
          (network = 'trc20' and length(tx_hash) = 64 and tx_hash not glob '*[^0-9a-f]*')
          or (network = 'bep20' and length(tx_hash) = 66 and substr(tx_hash, 1, 2) = '0x'
            and substr(tx_hash, 3) not glob '*[^0-9a-f]*')),
        "log_index" integer not null,
        "from_address" varchar(64) not null,
        "to_address" varchar(64) not null,
        "amount" bigint not null,
        "exact" integer not null,
        "block_number" bigint not null,
        "block_time" varchar(32) not null,
        "outcome" varchar(12) not null
          check (outcome in ('CREDITED', 'LATE', 'EXTRA', 'UNMATCHED', 'INEXACT')),
        "request_id" integer references "usdt_requests" ("id"),
        "created_at" varchar(32) not null,
        constraint "usdt_transfers_once" unique ("network", "tx_hash", "log_index"))`.execute(trx)
      await canonicalise(trx, 'usdt_transfers_new')
      await sql`drop table usdt_transfers`.execute(trx)
      await sql`alter table usdt_transfers_new rename to usdt_transfers`.execute(trx)
      await constrain(trx)
      const broken = await sql`pragma foreign_key_check`.execute(trx)
      if (broken.rows.length > 0) throw new Error('foreign keys broken by the rebuild')
    })
  } finally {
    await sql`pragma foreign_keys = on`.execute(db)
  }
}

interface TransferRow {
  id: number | bigint
  network: 'trc20' | 'bep20'
  tx_hash: string
  log_index: number | bigint
}

/**
 * Every stored hash in its network's spelling. On SQLite the transfers are copied into `into`
 * (the rebuilt table) in id order; on PostgreSQL they are rewritten in place.
 */
async function canonicalise(db: Kysely<unknown>, into?: string) {
  const requests = await sql<{ id: number; network: 'trc20' | 'bep20'; tx_hash: string }>`
    select id, network, tx_hash from usdt_requests where tx_hash is not null`.execute(db)
  for (const r of requests.rows) {
    const hash = canonicalTxHash(r.network, r.tx_hash) ?? r.tx_hash
    if (hash !== r.tx_hash)
      await sql`update usdt_requests set tx_hash = ${hash} where id = ${r.id}`.execute(db)
  }

  const transfers = await sql<TransferRow>`
    select id, network, tx_hash, log_index from usdt_transfers order by id`.execute(db)
  const taken = new Set<string>()
  let spare = -2
  const keys = transfers.rows.map((t) => {
    const hash = canonicalTxHash(t.network, t.tx_hash) ?? t.tx_hash
    let log = Number(t.log_index)
    // The same transfer recorded twice under two spellings: kept, apart, for the audit.
    while (taken.has(`${t.network}:${hash}:${log}`)) log = spare--
    taken.add(`${t.network}:${hash}:${log}`)
    return { ...t, hash, log }
  })
  if (into) {
    for (const t of keys)
      await sql`insert into ${sql.table(into)} select id, network, ${t.hash}, ${t.log},
        from_address, to_address, amount, exact, block_number, block_time, outcome, request_id,
        created_at from usdt_transfers where id = ${t.id}`.execute(db)
    return
  }
  // Moved aside first, so that no row meets another's old key on the way.
  await sql`update usdt_transfers set log_index = -1000000 - id`.execute(db)
  for (const t of keys)
    await sql`update usdt_transfers set tx_hash = ${t.hash}, log_index = ${t.log}
      where id = ${t.id}`.execute(db)
}

/** The partial unique indexes, and open requests brought down to one per customer. */
async function constrain(db: Kysely<unknown>) {
  const now = new Date().toISOString()
  await sql`update usdt_requests set status = 'EXPIRED'
    where status = 'OPEN' and (expires_at <= ${now} or id not in (
      select max(id) from usdt_requests where status = 'OPEN' group by user_id))`.execute(db)
  await sql`create unique index usdt_requests_one_open on usdt_requests (user_id)
    where status = 'OPEN'`.execute(db)
  await sql`create unique index usdt_transfers_credit_once on usdt_transfers (request_id)
    where outcome = 'CREDITED'`.execute(db)
}
