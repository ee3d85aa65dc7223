import { Hono } from 'hono'
import { sql, type Kysely } from 'kysely'
import { migrations } from '../db/migrations'
import type { Database } from '../db/schema'

/** How long /readyz waits for the database before it answers that it does not answer. */
const READY_TIMEOUT_MS = 2000

/** Every migration this build knows (the names are the same on both databases). */
const EXPECTED = Object.keys(migrations('sqlite'))

/** Why the store cannot take traffic now, or null when it can. Words only: no versions, no paths. */
export async function unreadyReason(
  db: Kysely<Database>,
  isStopping: () => boolean,
): Promise<string | null> {
  if (isStopping()) return 'shutting down'
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), READY_TIMEOUT_MS)
  })
  const look = async () => {
    try {
      await sql`select 1`.execute(db)
    } catch {
      return 'database unreachable'
    }
    try {
      const { rows } = await sql<{ name: string }>`select name from kysely_migration`.execute(db)
      const applied = new Set(rows.map((r) => r.name))
      if (EXPECTED.some((name) => !applied.has(name))) return 'migrations pending'
      // A newer build migrated this database: this one may not understand its schema.
      if (applied.size > EXPECTED.length) return 'database is newer than this server'
      return null
    } catch {
      return 'migrations pending'
    }
  }
  try {
    const reason = await Promise.race([look(), timeout])
    return reason === 'timeout' ? 'database not answering' : reason
  } finally {
    clearTimeout(timer)
  }
}

/**
 * GET /healthz (the process answers) and GET /readyz (the database answers and its migrations
 * are this build's; 503 with the reason otherwise). Outside /api: no session, no rate limit,
 * never cached. Both answer `{"status": ...}` and nothing else about the server.
 */
export function healthRoutes(db: Kysely<Database>, isStopping: () => boolean = () => false) {
  return new Hono()
    .get('/healthz', (c) => {
      c.header('Cache-Control', 'no-store')
      return c.json({ status: 'ok' })
    })
    .get('/readyz', async (c) => {
      c.header('Cache-Control', 'no-store')
      const reason = await unreadyReason(db, isStopping)
      return reason === null
        ? c.json({ status: 'ok' })
        : c.json({ status: 'unavailable', reason }, 503)
    })
}
