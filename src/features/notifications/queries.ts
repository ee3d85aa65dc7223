import { queryOptions } from '@tanstack/react-query'
import { api } from '../../api/client'
import { USER_KEY } from '../../api/session'
import type { Locale } from '../../contract/common'
import { POPUP_NOTIFICATIONS } from '../../contract/constants'
import type * as Contract from '../../contract/notifications'

/** A reply schema, loaded with the reply: the notifications' page is a first load too. */
const reply =
  <K extends keyof typeof Contract>(name: K) =>
  () =>
    import('../../contract/notifications').then((contract) => contract[name])

export const notificationQueries = {
  all: [...USER_KEY, 'notifications'] as const,
  /**
   * A page of the list, said in `locale` (the server words them in the language asked for);
   * reading it marks what it shows as read.
   */
  list: (locale: Locale, page: number, sort: { sort_by?: string; sort_value?: string } = {}) =>
    queryOptions({
      queryKey: [...notificationQueries.all, 'list', locale, page, sort],
      queryFn: ({ signal }) =>
        api.get('notifications', reply('NotificationPageSchema'), {
          signal,
          query: { page, ...sort },
        }),
    }),
  /** The popup's newest unread ones (at most two); opening it marks them read. */
  popup: (locale: Locale) =>
    queryOptions({
      queryKey: [...notificationQueries.all, 'popup', locale],
      queryFn: ({ signal }) =>
        api.get('notifications', reply('NotificationPageSchema'), {
          signal,
          query: { unread: 1, per_page: POPUP_NOTIFICATIONS },
        }),
      staleTime: 0,
      meta: { persist: false },
    }),
}

export const notificationsApi = {
  remove: (id: number) =>
    api.delete(`notifications/${id}`, () =>
      import('../../contract/common').then((contract) => contract.MessageReplySchema),
    ),
}
