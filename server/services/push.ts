import { metrics } from '../metrics'
import type { Kysely } from 'kysely'
import type { Selectable } from 'kysely'
import type { PushRecipient, PushSender } from '../adapters/push'
import type { Database, PushJobTable } from '../db/schema'
import { errorFields, type Logger } from '../log'
import type { PushMessage } from './notifications'

/*
 * Sending the pushes notify() wrote. A job is claimed for a short lease (so two server
 * instances do not both send it), sent to every device of its user, and retried with growing
 * waits when FCM fails, a bounded number of times; a token FCM says is gone is forgotten.
 * Nothing here runs inside the transaction of the change: a slow or failing FCM never slows
 * or fails an order's status change or a top-up.
 */

const LEASE_MS = 60_000
const MAX_ATTEMPTS = 6
const BATCH = 50
/** A push token the browser has not given again in this long is dropped. */
export const TOKEN_MAX_AGE_MS = 30 * 24 * 3600 * 1000

const backoffMs = (attempts: number) => Math.min(3600_000, 5_000 * 2 ** attempts)

/** The devices a user can be reached on: live sessions with a push token. */
function tokensOf(db: Kysely<Database>, userId: number, now: Date) {
  return db
    .selectFrom('sessions')
    .select('fcm_token')
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .where('fcm_token', 'is not', null)
    .where('fcm_token_at', '>', new Date(now.getTime() - TOKEN_MAX_AGE_MS).toISOString())
    .execute()
}

/**
 * The devices an alert goes to: console sessions not signed out, of operators not disabled,
 * whose push token was given in the last 30 days; each with the console's language there.
 */
function operatorDevices(db: Kysely<Database>, now: Date) {
  return db
    .selectFrom('operator_sessions')
    .innerJoin('operators', 'operators.id', 'operator_sessions.operator_id')
    .select([
      'operator_sessions.operator_id as operatorId',
      'operator_sessions.fcm_token as token',
      'operator_sessions.fcm_locale as locale',
    ])
    .where('operator_sessions.revoked_at', 'is', null)
    .where('operators.disabled_at', 'is', null)
    .where('operator_sessions.fcm_token', 'is not', null)
    .where(
      'operator_sessions.fcm_token_at',
      '>',
      new Date(now.getTime() - TOKEN_MAX_AGE_MS).toISOString(),
    )
    .execute()
}

/** One device a job goes to: its token, the message in its language, whose it is. */
interface Device {
  token: string
  message: PushMessage
  to: PushRecipient
}

/** Sends the pushes that are due, customers' and operators'; returns how many jobs finished. */
export async function deliverPushes(
  db: Kysely<Database>,
  sender: PushSender,
  options: { now: Date; logger?: Logger },
): Promise<number> {
  const customers = await deliverQueue(
    db,
    sender,
    'push_jobs',
    async (job) => {
      const message = JSON.parse(job.message) as PushMessage
      return (await tokensOf(db, job.user_id, options.now)).flatMap(({ fcm_token: token }) =>
        token ? [{ token, message, to: { userId: job.user_id } }] : [],
      )
    },
    options,
  )
  const operators = await deliverQueue(
    db,
    sender,
    // Both job tables have the columns deliverQueue reads; `user_id` is only read above.
    'operator_push_jobs' as 'push_jobs',
    async (job) => {
      const messages = JSON.parse(job.message) as Record<string, PushMessage>
      return (await operatorDevices(db, options.now)).flatMap(({ token, locale, operatorId }) =>
        token
          ? [{ token, message: messages[locale ?? 'en'] ?? messages.en!, to: { operatorId } }]
          : [],
      )
    },
    options,
  )
  return customers + operators
}

async function deliverQueue(
  db: Kysely<Database>,
  sender: PushSender,
  table: 'push_jobs',
  devicesOf: (job: Selectable<PushJobTable>) => Promise<Device[]>,
  { now, logger }: { now: Date; logger?: Logger },
): Promise<number> {
  const at = now.toISOString()
  const due = await db
    .selectFrom(table)
    .selectAll()
    .where('done_at', 'is', null)
    .where('next_at', '<=', at)
    .orderBy('id')
    .limit(BATCH)
    .execute()
  let finished = 0
  for (const job of due) {
    // The lease: whoever moves next_at first sends it.
    const claimed = await db
      .updateTable(table)
      .set({ next_at: new Date(now.getTime() + LEASE_MS).toISOString() })
      .where('id', '=', job.id)
      .where('next_at', '=', job.next_at)
      .where('done_at', 'is', null)
      .executeTakeFirst()
    if (Number(claimed.numUpdatedRows) === 0) continue
    let failed = false
    for (const { token, message, to } of await devicesOf(job)) {
      const result = await sender.send(token, message, to).catch((err) => {
        logger?.warn('push sender threw', errorFields(err))
        return 'failed' as const
      })
      if (result === 'unregistered') await forgetToken(db, token)
      else if (result === 'failed') failed = true
    }
    const attempts = job.attempts + 1
    if (failed && attempts < MAX_ATTEMPTS) {
      await db
        .updateTable(table)
        .set({ attempts, next_at: new Date(now.getTime() + backoffMs(attempts)).toISOString() })
        .where('id', '=', job.id)
        .execute()
    } else {
      if (failed) logger?.warn('push given up', { job: job.id, attempts })
      metrics.pushJobs.inc({ outcome: failed ? 'failed' : 'sent' })
      await db.updateTable(table).set({ attempts, done_at: at }).where('id', '=', job.id).execute()
      finished++
    }
  }
  return finished
}

/** A token FCM says is gone: no session, a customer's or an operator's, keeps it. */
async function forgetToken(db: Kysely<Database>, token: string) {
  await db
    .updateTable('sessions')
    .set({ fcm_token: null, fcm_token_at: null })
    .where('fcm_token', '=', token)
    .execute()
  await db
    .updateTable('operator_sessions')
    .set({ fcm_token: null, fcm_token_at: null })
    .where('fcm_token', '=', token)
    .execute()
}

/** Forgets push tokens not given again for 30 days, and finished jobs older than a week. */
export async function prunePush(db: Kysely<Database>, now: Date): Promise<void> {
  await db
    .updateTable('sessions')
    .set({ fcm_token: null, fcm_token_at: null })
    .where('fcm_token', 'is not', null)
    .where('fcm_token_at', '<=', new Date(now.getTime() - TOKEN_MAX_AGE_MS).toISOString())
    .execute()
  for (const table of ['push_jobs', 'operator_push_jobs'] as const)
    await db
      .deleteFrom(table)
      .where('done_at', '<', new Date(now.getTime() - 7 * 24 * 3600 * 1000).toISOString())
      .execute()
}

/**
 * Sends due pushes every `intervalMs` until stopped; prunes once an hour. Stopping resolves
 * once the round under way (if any) has finished: a safe point to close the database.
 */
export function startPushing(
  db: Kysely<Database>,
  sender: PushSender,
  { intervalMs, logger }: { intervalMs: number; logger: Logger },
): () => Promise<void> {
  let stopped = false
  let timer: ReturnType<typeof setTimeout> | undefined
  let lastPrune = 0
  let running: Promise<void> = Promise.resolve()
  const round = async () => {
    const now = new Date()
    try {
      await deliverPushes(db, sender, { now, logger })
      if (now.getTime() - lastPrune > 3600_000) {
        lastPrune = now.getTime()
        await prunePush(db, now)
      }
    } catch (err) {
      logger.warn('push round failed', errorFields(err))
    }
    if (!stopped) timer = setTimeout(() => (running = round()), intervalMs).unref()
  }
  running = round()
  return () => {
    stopped = true
    clearTimeout(timer)
    return running
  }
}
