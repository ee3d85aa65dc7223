import { sql, type Kysely } from 'kysely'
import type * as v from 'valibot'
import type { NotificationSchema } from '../../src/contract/notifications'
import type { Database, LocaleCode, NotificationRow } from '../db/schema'
import { LIST_SORTS, NOTIFICATION_STATES } from '../../src/contract/constants'
import {
  listRequest,
  mapPage,
  pageRequest,
  queryPage,
  sortedBy,
  type ListQuery,
  type Page,
} from '../core/paging'
import { t, type MessageId } from '../i18n'
import { localDateTime } from './dates'

export type NotificationWire = v.InferInput<typeof NotificationSchema>

/** A notification's words, already in the user's language, and the page it is about. */
export interface NotificationText {
  title: string
  description: string
  /** A storefront path (`/#/Orders/12`): where tapping it (or its push) leads. */
  url?: string
  /** One tag per subject: a newer push about it replaces the older one on the device. */
  tag?: string
}

/** Renders a notification in the user's language at the time it is created. */
export function notificationText(
  locale: LocaleCode,
  title: MessageId,
  description: MessageId,
  values: Record<string, unknown>,
  target: Pick<NotificationText, 'url' | 'tag'> = {},
): NotificationText {
  return {
    title: t(locale, title, values),
    description: t(locale, description, values),
    ...target,
  }
}

/** The message a browser receives by push (as FCM delivers it): shown by the service worker. */
export function pushMessage(text: NotificationText) {
  return {
    notification: { title: text.title, body: text.description },
    data: {
      url: text.url ?? '/#/Notifications',
      ...(text.tag ? { tag: text.tag } : {}),
    },
  }
}
export type PushMessage = ReturnType<typeof pushMessage>

/**
 * Tells a user something happened: the notification, the bell's unread count, and a push to
 * each of their devices, sent once this transaction commits (services/push.ts). Call it in
 * the transaction that made the change, so all happen or none.
 */
export async function notify(
  trx: Kysely<Database>,
  userId: number,
  text: NotificationText,
  now: Date,
): Promise<void> {
  const at = now.toISOString()
  await trx
    .insertInto('notifications')
    .values({
      user_id: userId,
      title: text.title,
      description: text.description,
      url: text.url ?? null,
      tag: text.tag ?? null,
      created_at: at,
      read_at: null,
    })
    .execute()
  await trx
    .updateTable('users')
    .set((eb) => ({ new_notifications_count: eb('new_notifications_count', '+', 1) }))
    .where('id', '=', userId)
    .execute()
  await trx
    .insertInto('push_jobs')
    .values({
      user_id: userId,
      message: JSON.stringify(pushMessage(text)),
      attempts: 0,
      next_at: at,
      done_at: null,
      created_at: at,
    })
    .execute()
}

export function notificationWire(row: NotificationRow, timeZone: string): NotificationWire {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    url: row.url,
    read: row.read_at !== null,
    ...localDateTime(row.created_at, timeZone),
    created_at: row.created_at,
  }
}

/** The bell's count: what the user has not read yet. */
async function recount(db: Kysely<Database>, userId: number): Promise<number> {
  const { unread } = await db
    .selectFrom('notifications')
    .select((eb) => eb.fn.countAll<number>().as('unread'))
    .where('user_id', '=', userId)
    .where('read_at', 'is', null)
    .executeTakeFirstOrThrow()
  await db
    .updateTable('users')
    .set({ new_notifications_count: Number(unread) })
    .where('id', '=', userId)
    .execute()
  return Number(unread)
}

export const NOTIFICATIONS_PER_PAGE = 10
const NOTIFICATIONS_MAX_PER_PAGE = 50

/**
 * GET notifications: the user's notifications, newest first or as sorted, all or only the
 * unread or the read ones (`state`; `unread` too). Reading them marks what is shown as read,
 * and the bell's count follows.
 */
export async function readNotifications(
  db: Kysely<Database>,
  userId: number,
  query: ListQuery & { page?: string; per_page?: string; unread?: string },
  { now, timeZone }: { now: Date; timeZone: string },
): Promise<Page<NotificationWire> & { unread: number }> {
  const request = pageRequest(query, {
    perPage: NOTIFICATIONS_PER_PAGE,
    maxPerPage: NOTIFICATIONS_MAX_PER_PAGE,
  })
  const { sort, state } = listRequest(query, {
    sorts: LIST_SORTS.notifications,
    states: NOTIFICATION_STATES,
  })
  let base = db.selectFrom('notifications').where('user_id', '=', userId)
  if (state === 'unread' || query.unread === '1' || query.unread === 'true')
    base = base.where('read_at', 'is', null)
  else if (state === 'read') base = base.where('read_at', 'is not', null)
  const page = await queryPage(base, request, sortedBy(sort))
  const shownUnread = page.data.filter((row) => row.read_at === null).map((row) => row.id)
  let unread: number | undefined
  if (shownUnread.length > 0) {
    await db
      .updateTable('notifications')
      .set({ read_at: now.toISOString() })
      .where('id', 'in', shownUnread)
      .where('read_at', 'is', null)
      .execute()
    unread = await recount(db, userId)
  }
  unread ??= Number(
    (
      await db
        .selectFrom('users')
        .select('new_notifications_count')
        .where('id', '=', userId)
        .executeTakeFirstOrThrow()
    ).new_notifications_count,
  )
  return {
    ...mapPage(page, (row) => notificationWire(row, timeZone)),
    unread,
  }
}

/** DELETE notifications/{id}: the user's own only; false when there is no such one of theirs. */
export async function deleteNotification(
  db: Kysely<Database>,
  userId: number,
  id: number,
): Promise<boolean> {
  const deleted = await db
    .deleteFrom('notifications')
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .returning('read_at')
    .executeTakeFirst()
  if (!deleted) return false
  if (deleted.read_at === null) await recount(db, userId)
  return true
}

/** How many pushes are waiting to be sent (for the logs and tests). */
export async function pendingPushes(db: Kysely<Database>): Promise<number> {
  const { n } = await db
    .selectFrom('push_jobs')
    .select(sql<number>`count(*)`.as('n'))
    .where('done_at', 'is', null)
    .executeTakeFirstOrThrow()
  return Number(n)
}
