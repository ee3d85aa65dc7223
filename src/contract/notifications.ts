import * as v from 'valibot'
import { pageOf } from './catalogue'
import { POPUP_NOTIFICATIONS, type NOTIFICATION_SUBJECT_KINDS } from './constants'

export type NotificationSubjectKind = (typeof NOTIFICATION_SUBJECT_KINDS)[number]

/**
 * What a notification is about: an order, a top-up, or the wallet. The storefront and its
 * service worker know the page of each (src/pwa/notification-page.ts); the server names no page.
 */
export const NotificationSubjectSchema = v.union([
  v.object({ kind: v.picklist(['order', 'top-up']), id: v.number() }),
  v.object({ kind: v.literal('wallet') }),
])
export type NotificationSubject = v.InferOutput<typeof NotificationSubjectSchema>

/** A notification: what happened, in the language asked for, when, and what it is about. */
export const NotificationSchema = v.object({
  id: v.number(),
  title: v.string(),
  description: v.string(),
  subject: v.nullish(NotificationSubjectSchema),
  read: v.nullish(v.boolean(), false),
  /** Day and time in the store's time zone. */
  date: v.string(),
  time: v.string(),
  created_at: v.nullish(v.string()),
})
export type Notification = v.InferOutput<typeof NotificationSchema>

/** GET notifications: a page, and the unread count after this read (the bell's). */
export const NotificationPageSchema = v.object({
  ...pageOf(NotificationSchema).entries,
  unread: v.nullish(v.number(), 0),
})

/** POST user/fcm-token: the push token the browser has now (empty: none). */
export const FcmTokenPayloadSchema = v.object({
  fcm_token: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(4096)), ''),
})

/**
 * GET push/config: the Firebase web app's settings (public by nature) the storefront asks a
 * device's push token with, or null when the store sends no push: then nothing offers it.
 */
export const PushConfigSchema = v.object({
  apiKey: v.string(),
  projectId: v.string(),
  messagingSenderId: v.string(),
  appId: v.string(),
  vapidKey: v.string(),
})
export type PushConfig = v.InferOutput<typeof PushConfigSchema>
export const PushConfigReplySchema = v.object({ data: v.nullable(PushConfigSchema) })

export { POPUP_NOTIFICATIONS }
