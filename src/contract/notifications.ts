import * as v from 'valibot'
import { pageOf } from './catalogue'

/** A notification: what happened, when, and the page it is about. */
export const NotificationSchema = v.object({
  id: v.number(),
  title: v.string(),
  description: v.string(),
  /** A storefront path (`/#/Orders/12`), or null. */
  url: v.nullish(v.string()),
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

/** The notification popup shows at most this many. */
export const POPUP_NOTIFICATIONS = 2
