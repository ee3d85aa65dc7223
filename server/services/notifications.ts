import { sql, type Kysely } from 'kysely'
import type * as v from 'valibot'
import type { Locale } from '../../src/contract/common'
import type {
  NotificationSchema,
  NotificationSubject,
  NotificationSubjectKind,
} from '../../src/contract/notifications'
import { formatMoney } from '../../src/domain/money'
import type { CurrencyCode, Database, NotificationRow, UserRow } from '../db/schema'
import { LIST_SORTS, NOTIFICATION_STATES } from '../../src/contract/constants'
import { listCall, mapPage, type ListQuery, type Page } from '../core/paging'
import { isMessageId, LOCALES, t, type MessageId } from '../i18n'
import { localDateTime } from './dates'
import { currentRequestId } from '../log'

export type NotificationWire = v.InferInput<typeof NotificationSchema>

type TitleId = Extract<MessageId, `notification.${string}.title`>
/** What happened: its words are the server messages `notification.<message>.title`, `.body`. */
export type NoticeMessage = TitleId extends `notification.${infer M}.title` ? M : never

/**
 * A value of a notice's message, kept so that it can be said in either language when read: as
 * it is (an order's number, an operator's reason, written once), words in each language (what
 * was bought), an amount (formatted for the reader), or a server message (a method's name).
 */
export type NoticeValue =
  | string
  | number
  | { text: Record<Locale, string> }
  | { money: string; currency: CurrencyCode }
  | { message: MessageId }

/** Something to tell a user: what happened, its values, and what it is about. */
export interface Notice {
  message: NoticeMessage
  values: Record<string, NoticeValue>
  subject?: NotificationSubject
}

/** An amount for a notice: formatted in the language it is read in. */
export const noticeMoney = (micros: bigint, currency: CurrencyCode): NoticeValue => ({
  money: micros.toString(),
  currency,
})

/** Words for a notice in each language (what was bought: the catalogue's two names). */
export const inEachLanguage = (words: (locale: Locale) => string): NoticeValue => ({
  text: Object.fromEntries(LOCALES.map((locale) => [locale, words(locale)])) as Record<
    Locale,
    string
  >,
})

function valueIn(locale: Locale, value: NoticeValue): string | number {
  if (typeof value !== 'object') return value
  if ('text' in value) return value.text[locale] ?? value.text.en
  if ('money' in value) return formatMoney(BigInt(value.money), value.currency, locale)
  return t(locale, value.message)
}

/** A notice's title and description in `locale`. */
export function noticeText(locale: Locale, { message, values }: Omit<Notice, 'subject'>) {
  const said = Object.fromEntries(
    Object.entries(values).map(([name, value]) => [name, valueIn(locale, value)]),
  )
  return {
    title: t(locale, `notification.${message}.title`, said),
    description: t(locale, `notification.${message}.body`, said),
  }
}

/**
 * The message a browser receives by push (as FCM delivers it), shown by the service worker: in
 * the user's language when it is sent, with what it is about, whose page the worker knows, and
 * a tag per subject (a newer push about an order replaces the older one on the device).
 */
export function pushMessage(
  text: { title: string; description: string },
  subject?: NotificationSubject,
): PushMessage {
  return {
    notification: { title: text.title, body: text.description },
    data: subject
      ? {
          kind: subject.kind,
          ...('id' in subject && { id: String(subject.id) }),
          tag: 'id' in subject ? `${subject.kind}-${subject.id}` : subject.kind,
        }
      : {},
  }
}
export interface PushMessage {
  notification: { title: string; body: string }
  /** FCM's data, strings only: the subject's kind and id, and the device's tag for it. */
  data: { kind?: NotificationSubjectKind; id?: string; tag?: string; page?: string }
}

/**
 * Tells a user something happened: the notification, the bell's unread count, and a push to
 * each of their devices in their language, sent once this transaction commits
 * (services/push.ts). Call it in the transaction that made the change, so all happen or none.
 */
export async function notify(
  trx: Kysely<Database>,
  user: Pick<UserRow, 'id' | 'locale'>,
  notice: Notice,
  now: Date,
): Promise<void> {
  const at = now.toISOString()
  const text = noticeText(user.locale, notice)
  await trx
    .insertInto('notifications')
    .values({
      user_id: user.id,
      // The words of the moment too: what a reader of the table (or an older server) sees.
      title: text.title,
      description: text.description,
      message: notice.message,
      message_values: JSON.stringify(notice.values),
      subject_kind: notice.subject?.kind ?? null,
      subject_id: notice.subject && 'id' in notice.subject ? notice.subject.id : null,
      created_at: at,
      read_at: null,
    })
    .execute()
  await trx
    .updateTable('users')
    .set((eb) => ({ new_notifications_count: eb('new_notifications_count', '+', 1) }))
    .where('id', '=', user.id)
    .execute()
  await trx
    .insertInto('push_jobs')
    .values({
      user_id: user.id,
      ...pushJob(pushMessage(text, notice.subject), at),
    })
    .execute()
}

/** The row's words in `locale`, from its message; a row made before messages, as written. */
function rowText(row: NotificationRow, locale: Locale) {
  const message = row.message as NoticeMessage | null
  if (message && isMessageId(`notification.${message}.title`) && row.message_values) {
    try {
      const values = JSON.parse(row.message_values) as Notice['values']
      return noticeText(locale, { message, values })
    } catch {
      // Unreadable values: the words it was written with.
    }
  }
  return { title: row.title, description: row.description }
}

function subjectOf(row: NotificationRow): NotificationSubject | null {
  switch (row.subject_kind) {
    case 'order':
    case 'top-up':
      return row.subject_id === null ? null : { kind: row.subject_kind, id: row.subject_id }
    case 'wallet':
      return { kind: 'wallet' }
    default:
      return null
  }
}

export function notificationWire(
  row: NotificationRow,
  { locale, timeZone }: { locale: Locale; timeZone: string },
): NotificationWire {
  return {
    id: row.id,
    ...rowText(row, locale),
    subject: subjectOf(row),
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
  { now, locale, timeZone }: { now: Date; locale: Locale; timeZone: string },
): Promise<Page<NotificationWire> & { unread: number }> {
  const list = listCall(query, {
    sorts: LIST_SORTS.notifications,
    states: NOTIFICATION_STATES,
    perPage: NOTIFICATIONS_PER_PAGE,
    maxPerPage: NOTIFICATIONS_MAX_PER_PAGE,
  })
  const { state } = list
  let base = db.selectFrom('notifications').where('user_id', '=', userId)
  if (state === 'unread' || query.unread === '1' || query.unread === 'true')
    base = base.where('read_at', 'is', null)
  else if (state === 'read') base = base.where('read_at', 'is not', null)
  const page = await list.page(base)
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
    ...mapPage(page, (row) => notificationWire(row, { locale, timeZone })),
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

/** A push job's row, due now: its message (as JSON), and the request that made it. */
export function pushJob(message: object, at: string) {
  return {
    message: JSON.stringify(message),
    attempts: 0,
    next_at: at,
    done_at: null,
    created_at: at,
    request_id: currentRequestId(),
  }
}
