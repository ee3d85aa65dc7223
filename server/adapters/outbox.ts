import type { Kysely } from 'kysely'
import type { Database } from '../db/schema'
import type { Logger } from '../log'
import type { OutgoingCode, Sender } from './delivery'

/**
 * The local sender: nothing leaves the machine. Every message is logged and kept in the
 * `outbox` table, where GET /api/dev/outbox (development and tests only) and an operator can
 * read it. Production logs never carry the code itself.
 */
export function createOutboxSender(
  db: Kysely<Database>,
  logger: Logger,
  options: { logCodes: boolean },
): Sender {
  return {
    kind: 'outbox',
    async send(message: OutgoingCode) {
      await db
        .insertInto('outbox')
        .values({
          channel: message.channel,
          recipient: message.to,
          purpose: message.purpose,
          code: message.code,
          body: message.body,
          created_at: new Date().toISOString(),
        })
        .execute()
      logger.info('code kept in the local outbox', {
        channel: message.channel,
        to: message.to,
        purpose: message.purpose,
        ...(options.logCodes ? { code: message.code } : {}),
      })
    },
  }
}

export interface OutboxEntry {
  to: string
  channel: string
  purpose: string
  code: string | null
  body: string
  created_at: string
}

/** Newest first; `to` already normalised (E.164 or lower-case e-mail). */
export async function readOutbox(
  db: Kysely<Database>,
  to: string | undefined,
  limit = 50,
): Promise<OutboxEntry[]> {
  let query = db
    .selectFrom('outbox')
    .select(['recipient as to', 'channel', 'purpose', 'code', 'body', 'created_at'])
    .orderBy('id', 'desc')
    .limit(limit)
  if (to !== undefined) query = query.where('recipient', '=', to)
  return query.execute()
}
