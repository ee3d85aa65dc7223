import type { Kysely } from 'kysely'
import type { Database } from '../db/schema'
import { currentRequestId, type Logger } from '../log'
import type { Channel, OutgoingCode, OutgoingNotice, Sender } from './delivery'

/**
 * The local sender: nothing leaves the machine. Every message is logged and kept in the
 * `outbox` table, where an operator can read it (and GET /api/dev/outbox, when DEV_OUTBOX=1
 * outside production). Production logs never carry the code itself.
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
          request_id: currentRequestId(),
        })
        .execute()
      logger.info('code kept in the local outbox', {
        channel: message.channel,
        to: message.to,
        purpose: message.purpose,
        ...(options.logCodes ? { code: message.code } : {}),
      })
    },
    async notify(notice: OutgoingNotice) {
      await db
        .insertInto('outbox')
        .values({
          channel: notice.channel,
          recipient: notice.to,
          purpose: 'notice',
          code: null,
          body: notice.body,
          created_at: new Date().toISOString(),
          request_id: currentRequestId(),
        })
        .execute()
      logger.info('security notice kept in the local outbox', {
        channel: notice.channel,
        to: notice.to,
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

/**
 * Newest first; `to` already normalised (E.164 or lower-case e-mail). Only `channels`: what
 * an earlier configuration kept for a channel that now has a real sender stays hidden.
 */
export async function readOutbox(
  db: Kysely<Database>,
  { to, channels, limit = 50 }: { to: string | undefined; channels: Channel[]; limit?: number },
): Promise<OutboxEntry[]> {
  if (channels.length === 0) return []
  let query = db
    .selectFrom('outbox')
    .select(['recipient as to', 'channel', 'purpose', 'code', 'body', 'created_at'])
    .where('channel', 'in', channels)
    .orderBy('id', 'desc')
    .limit(limit)
  if (to !== undefined) query = query.where('recipient', '=', to)
  return query.execute()
}
