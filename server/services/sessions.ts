import { createHash, randomBytes } from 'node:crypto'
import { CompiledQuery, PostgresAdapter, sql, type Kysely } from 'kysely'
import { nameStatement } from '../db/named-statements'
import { prepared } from '../db/prepared'
import { TurnBatch } from '../db/turn-batch'
import type { Database, UserRow } from '../db/schema'

/** last_used_at is written at most this often, so every request is not also a write. */
const TOUCH_EVERY_MS = 60_000

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex')

/** Starts a session; returns the token the client keeps. Only its SHA-256 is stored. */
export async function createSession(
  db: Kysely<Database>,
  userId: number,
  { fcmToken, now }: { fcmToken: string | null; now: Date },
): Promise<string> {
  const token = randomBytes(32).toString('base64url')
  const at = now.toISOString()
  await db
    .insertInto('sessions')
    .values({
      user_id: userId,
      token_hash: hashToken(token),
      fcm_token: fcmToken,
      fcm_token_at: fcmToken ? at : null,
      created_at: at,
      last_used_at: at,
      revoked_at: null,
    })
    .execute()
  return token
}

/** How long a session lives: `idleMs` unused, `maxMs` since sign-in (SESSION_*_DAYS). */
export interface SessionLimits {
  idleMs: number
  maxMs: number
}

const expired = (
  session: { created_at: string; last_used_at: string },
  limits: SessionLimits,
  nowMs: number,
) =>
  nowMs - Date.parse(session.last_used_at) >= limits.idleMs ||
  nowMs - Date.parse(session.created_at) >= limits.maxMs

/**
 * The live sessions of several tokens, with their users: every authenticated request asks,
 * so the requests of one turn of the event loop share one read (liveSessionOf). Each row also
 * carries the content version (services/content-version.ts) as of this read, which began after
 * the request came in: an order is priced by it without a read of its own. Built once
 * (db/prepared.ts). This is SQLite's; PostgreSQL runs LIVE_SESSIONS_POSTGRES.
 */
const liveSessions = prepared((db, { hashes }: { hashes: unknown }) =>
  db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .selectAll('users')
    .select([
      'sessions.token_hash as session_token_hash',
      'sessions.id as session_id',
      'sessions.last_used_at as session_last_used_at',
      'sessions.created_at as session_created_at',
      sql<string | bigint>`(select version from content_version where id = 1)`.as(
        'session_content_version',
      ),
    ])
    .where(
      sql<boolean>`${sql.ref('sessions.token_hash')} in (select value from json_each(${hashes}))`,
    )
    .where('sessions.revoked_at', 'is', null),
)

/**
 * The same read on PostgreSQL, as a named statement (db/named-statements.ts): parsing and
 * planning it each time cost about four times its running. PostgreSQL keeps a named
 * statement's generic plan, made without the tokens, so the query leaves it no plan but
 * lookups: each token is looked up alone by the unique token_hash and each session's user by
 * its primary key, in lateral subqueries that `offset 0` keeps from being merged into a join
 * that could scan either table. The tokens come through a subquery, so that a plan made for
 * given tokens does not count them: it then costs as much as the generic plan, which is kept
 * from the sixth run on (when the custom ones look cheaper, every run is planned anew).
 */
const LIVE_SESSIONS_POSTGRES = `
select u.*, s.token_hash as session_token_hash, s.id as session_id,
  s.last_used_at as session_last_used_at, s.created_at as session_created_at,
  (select version from content_version where id = 1) as session_content_version
from unnest((select $1::text[])) as h (hash)
cross join lateral (
  select id, user_id, token_hash, last_used_at, created_at from sessions
  where token_hash = h.hash and revoked_at is null offset 0
) s
cross join lateral (select * from users where users.id = s.user_id offset 0) u`
nameStatement(LIVE_SESSIONS_POSTGRES)

type LiveSessionRow = Awaited<ReturnType<typeof liveSessions>>['rows'][number]

const sessionReads = new WeakMap<Kysely<Database>, TurnBatch<string, LiveSessionRow | undefined>>()

/**
 * The session row of a token's hash (revoked ones excluded), read after the call was made:
 * the calls of one turn go in one read (db/turn-batch.ts), so a sign-out or a revocation
 * committed before a request came in is always seen by it.
 */
function liveSessionOf(db: Kysely<Database>, hash: string): Promise<LiveSessionRow | undefined> {
  const read = async (hashes: string[]) => {
    const unique = [...new Set(hashes)]
    const { rows } =
      db.getExecutor().adapter instanceof PostgresAdapter
        ? await db.executeQuery<LiveSessionRow>(CompiledQuery.raw(LIVE_SESSIONS_POSTGRES, [unique]))
        : await liveSessions(db, { hashes: JSON.stringify(unique) })
    const byHash = new Map(rows.map((row) => [row.session_token_hash, row]))
    return hashes.map((h) => byHash.get(h))
  }
  if (db.isTransaction) return read([hash]).then(([row]) => row)
  let batch = sessionReads.get(db)
  if (!batch) sessionReads.set(db, (batch = new TurnBatch(read)))
  return batch.add(hash)
}

/**
 * The live session a token belongs to, and its user: not revoked, not expired, and the user not
 * disabled. An expired session is deleted on the spot. With them, the content version read
 * with the session, after the call was made.
 */
export async function findSession(
  db: Kysely<Database>,
  token: string,
  now: Date,
  limits: SessionLimits,
): Promise<{ sessionId: number; user: UserRow; contentVersion: string } | undefined> {
  const row = await liveSessionOf(db, hashToken(token))
  if (!row) return undefined
  const {
    session_token_hash: _hash,
    session_id,
    session_last_used_at,
    session_created_at,
    session_content_version,
    ...user
  } = row
  const session = { created_at: session_created_at, last_used_at: session_last_used_at }
  if (expired(session, limits, now.getTime())) {
    await db.deleteFrom('sessions').where('id', '=', session_id).execute()
    return undefined
  }
  if (user.disabled_at !== null) return undefined
  if (now.getTime() - Date.parse(session_last_used_at) >= TOUCH_EVERY_MS) {
    await db
      .updateTable('sessions')
      .set({ last_used_at: now.toISOString() })
      .where('id', '=', session_id)
      .execute()
  }
  return { sessionId: session_id, user, contentVersion: String(session_content_version) }
}

/** Ends a session; its device's push token goes with it. */
export async function revokeSession(db: Kysely<Database>, sessionId: number, now: Date) {
  await db
    .updateTable('sessions')
    .set({ revoked_at: now.toISOString(), fcm_token: null, fcm_token_at: null })
    .where('id', '=', sessionId)
    .where('revoked_at', 'is', null)
    .execute()
}

export async function revokeUserSessions(db: Kysely<Database>, userId: number, now: Date) {
  await db
    .updateTable('sessions')
    .set({ revoked_at: now.toISOString(), fcm_token: null, fcm_token_at: null })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .execute()
}

/**
 * Deletes the sessions nobody can use any more: expired, or revoked longer ago than the idle
 * time. Run after each sign-in; an expired token that comes back is deleted by findSession.
 */
export async function pruneSessions(db: Kysely<Database>, limits: SessionLimits, now: Date) {
  const idleCutoff = new Date(now.getTime() - limits.idleMs).toISOString()
  const maxCutoff = new Date(now.getTime() - limits.maxMs).toISOString()
  await db
    .deleteFrom('sessions')
    .where((eb) =>
      eb.or([
        eb('last_used_at', '<=', idleCutoff),
        eb('created_at', '<=', maxCutoff),
        eb.and([eb('revoked_at', 'is not', null), eb('revoked_at', '<=', idleCutoff)]),
      ]),
    )
    .execute()
}

/** The push token the browser of this session has now (null: none any more). */
export async function setPushToken(
  db: Kysely<Database>,
  sessionId: number,
  token: string | null,
  now: Date,
): Promise<void> {
  if (token) {
    // One device, one session: a token another session had moves to this one.
    await db
      .updateTable('sessions')
      .set({ fcm_token: null, fcm_token_at: null })
      .where('fcm_token', '=', token)
      .where('id', '!=', sessionId)
      .execute()
  }
  await db
    .updateTable('sessions')
    .set({ fcm_token: token, fcm_token_at: token ? now.toISOString() : null })
    .where('id', '=', sessionId)
    .execute()
}
