import { NOTIFICATION_SUBJECT_KINDS } from '../contract/constants'
import type { NotificationSubject } from '../contract/notifications'

/*
 * Where a notification leads, for the notifications page and the service worker alike: the
 * server says what a notification is about (docs/api.md, Notifications), and only the
 * storefront knows its pages.
 */

/** The page of what a notification is about (a path of the hash routes); the list without. */
export function subjectPage(subject: NotificationSubject | null | undefined): string {
  switch (subject?.kind) {
    case 'order':
      return `/Orders/${subject.id}`
    case 'top-up':
      return `/shipping-payments/${subject.id}`
    case 'wallet':
      return '/wallet'
    default:
      return '/Notifications'
  }
}

/** The subject a push names in its data (strings, as FCM carries them), or null. */
export function pushSubject(data: Record<string, unknown> | undefined): NotificationSubject | null {
  const kind = NOTIFICATION_SUBJECT_KINDS.find((k) => k === data?.kind)
  if (kind === 'wallet') return { kind }
  const id = typeof data?.id === 'string' && /^[1-9]\d{0,14}$/.test(data.id) ? Number(data.id) : 0
  return kind && id ? { kind, id } : null
}
