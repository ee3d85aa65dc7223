import type { Kysely } from 'kysely'
import type { Database, LocaleCode } from '../db/schema'
import { t, type MessageId } from '../i18n'

/** A notification's words, already in the user's language. */
export interface NotificationText {
  title: string
  description: string
}

/** Renders a notification in the user's language at the time it is created. */
export function notificationText(
  locale: LocaleCode,
  title: MessageId,
  description: MessageId,
  values: Record<string, unknown>,
): NotificationText {
  return { title: t(locale, title, values), description: t(locale, description, values) }
}

/**
 * Tells a user something happened (spec section 3, Notification) and raises the unread count
 * of the bell. Call it in the transaction that made the change, so both happen or neither.
 */
export async function notify(
  trx: Kysely<Database>,
  userId: number,
  text: NotificationText,
  now: Date,
): Promise<void> {
  await trx
    .insertInto('notifications')
    .values({
      user_id: userId,
      title: text.title,
      description: text.description,
      created_at: now.toISOString(),
      read_at: null,
    })
    .execute()
  await trx
    .updateTable('users')
    .set((eb) => ({ new_notifications_count: eb('new_notifications_count', '+', 1) }))
    .where('id', '=', userId)
    .execute()
}
