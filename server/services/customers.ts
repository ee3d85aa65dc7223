import { sql, type Kysely } from 'kysely'
import type { Database, UserRow, UserType } from '../db/schema'
import { inTransaction } from '../db/transaction'
import { queryPage, type PageRequest } from '../core/paging'
import { recordAudit } from './audit'
import { revokeUserSessions } from './sessions'

/*
 * An operator's work on customers' accounts (docs/api.md, Console; docs/operations.md for the
 * CLI): the console's calls and the CLI's commands (users:disable, users:enable,
 * sessions:revoke, users:set-type) run these, each change with its audit line, `before` and
 * `after`, in one transaction.
 */

export interface Operation {
  /** The audit log's actor: `console:<operator>`, or the CLI's. */
  actor: string
  now: Date
}

/** How many live sessions (signed-in devices) an account has. */
export async function liveSessionCount(db: Kysely<Database>, userId: number): Promise<number> {
  const live = await db
    .selectFrom('sessions')
    .select(sql<number | string>`count(*)`.as('n'))
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .executeTakeFirstOrThrow()
  return Number(live.n)
}

/** Signs every device of the user out; returns how many sessions were live. */
export async function endSessions(trx: Kysely<Database>, userId: number, now: Date) {
  const live = await liveSessionCount(trx, userId)
  await revokeUserSessions(trx, userId, now)
  return live
}

/** The account as it is now, read in the transaction that changes it. */
const current = (trx: Kysely<Database>, userId: number) =>
  trx.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirstOrThrow()

/** Switches an account off: no sign-in, every session ends. Its data stays. */
export function disableAccount(
  db: Kysely<Database>,
  user: UserRow,
  op: Operation & { reason: string },
) {
  return inTransaction(db, async (trx) => {
    const before = await current(trx, user.id)
    const at = op.now.toISOString()
    const disabled = await trx
      .updateTable('users')
      .set({ disabled_at: at })
      .where('id', '=', user.id)
      .where('disabled_at', 'is', null)
      .executeTakeFirst()
    const changed = Number(disabled.numUpdatedRows) > 0
    const sessions = await endSessions(trx, user.id, op.now)
    await recordAudit(trx, {
      actor: op.actor,
      action: 'users:disable',
      user,
      details: {
        reason: op.reason,
        sessions_revoked: sessions,
        already_disabled: !changed,
        before: { disabled_at: before.disabled_at },
        after: { disabled_at: changed ? at : before.disabled_at },
      },
      now: op.now,
    })
    return { changed, sessions }
  })
}

/** Switches a disabled account back on (it signs in again with its password). */
export function enableAccount(db: Kysely<Database>, user: UserRow, op: Operation) {
  return inTransaction(db, async (trx) => {
    const before = await current(trx, user.id)
    const enabled = await trx
      .updateTable('users')
      .set({ disabled_at: null })
      .where('id', '=', user.id)
      .where('disabled_at', 'is not', null)
      .executeTakeFirst()
    const changed = Number(enabled.numUpdatedRows) > 0
    await recordAudit(trx, {
      actor: op.actor,
      action: 'users:enable',
      user,
      details: {
        already_enabled: !changed,
        before: { disabled_at: before.disabled_at },
        after: { disabled_at: null },
      },
      now: op.now,
    })
    return changed
  })
}

/** Signs an account out of every device (it can sign in again); how many sessions ended. */
export function revokeAccountSessions(db: Kysely<Database>, user: UserRow, op: Operation) {
  return inTransaction(db, async (trx) => {
    const sessions = await endSessions(trx, user.id, op.now)
    await recordAudit(trx, {
      actor: op.actor,
      action: 'sessions:revoke',
      user,
      details: {
        sessions_revoked: sessions,
        before: { sessions },
        after: { sessions: 0 },
      },
      now: op.now,
    })
    return sessions
  })
}

/** Makes an account a company (company pricing) or a customer; the account before and after. */
export function setAccountType(db: Kysely<Database>, user: UserRow, type: UserType, op: Operation) {
  return inTransaction(db, async (trx) => {
    const before = await current(trx, user.id)
    const after = await trx
      .updateTable('users')
      .set({ type })
      .where('id', '=', user.id)
      .returningAll()
      .executeTakeFirstOrThrow()
    await recordAudit(trx, {
      actor: op.actor,
      action: 'users:set-type',
      user,
      details: { before: { type: before.type }, after: { type } },
      now: op.now,
    })
    return { before, after }
  })
}

/** `%` and `_` typed in a search are themselves, not wildcards. */
const likeText = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`

/**
 * Accounts whose username, phone number or e-mail holds the text (any case), newest first;
 * every account when the text is empty.
 */
export function searchCustomers(db: Kysely<Database>, text: string, request: PageRequest) {
  let base = db.selectFrom('users')
  const wanted = text.trim().toLowerCase()
  if (wanted) {
    const pattern = likeText(wanted)
    // The phone as typed with spaces or dashes: its digits (and a leading +) are what is kept.
    const phone = likeText(wanted.replace(/[\s-]/g, ''))
    base = base.where((eb) =>
      eb.or([
        eb(sql`lower(username)`, 'like', sql`${pattern} escape '\\'`),
        eb(sql`phone_number`, 'like', sql`${phone} escape '\\'`),
        eb(sql`lower(coalesce(email, ''))`, 'like', sql`${pattern} escape '\\'`),
      ]),
    )
  }
  return queryPage(base, request, (q) => q.selectAll().orderBy('id', 'desc'))
}
