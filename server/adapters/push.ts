import type { Kysely } from 'kysely'
import type { Database } from '../db/schema'
import type { PushMessage } from '../services/notifications'

/**
 * How a push reaches a device. `unregistered`: the device's token is gone (the app was removed,
 * the permission withdrawn) and must be forgotten; `failed`: try again later.
 */
export type PushResult = 'sent' | 'unregistered' | 'failed'

/** Whose device a push goes to: a customer's, or an operator's console (its alerts). */
export type PushRecipient = { userId: number } | { operatorId: number }

export interface PushSender {
  /** firebase (FCM), outbox (local: development and tests) or none (pushes are not sent). */
  readonly kind: 'firebase' | 'outbox' | 'none'
  send(token: string, message: PushMessage, to: PushRecipient): Promise<PushResult>
}

/** The local sender: keeps each message as FCM would deliver it, for GET /api/dev/push. */
export function createPushOutbox(db: Kysely<Database>): PushSender {
  return {
    kind: 'outbox',
    async send(token, message, to) {
      const row = { token, message: JSON.stringify(message), created_at: new Date().toISOString() }
      if ('operatorId' in to)
        await db
          .insertInto('operator_push_outbox')
          .values({ operator_id: to.operatorId, ...row })
          .execute()
      else
        await db
          .insertInto('push_outbox')
          .values({ user_id: to.userId, ...row })
          .execute()
      return 'sent'
    },
  }
}

/** No sender configured: notifications are kept for the bell, no push leaves the server. */
export const noPush: PushSender = { kind: 'none', send: async () => 'sent' }

/** The outbox's messages to one user, newest first. */
export async function readPushOutbox(db: Kysely<Database>, userId: number, limit = 20) {
  const rows = await db
    .selectFrom('push_outbox')
    .select(['token', 'message', 'created_at'])
    .where('user_id', '=', userId)
    .orderBy('id', 'desc')
    .limit(limit)
    .execute()
  return rows.map((row) => ({
    token: row.token,
    message: JSON.parse(row.message) as PushMessage,
    created_at: row.created_at,
  }))
}
