import { queryOptions } from '@tanstack/react-query'
import { api } from '../../api/client'
import { USER_KEY } from '../../api/session'
import { MessageReplySchema } from '../../contract/common'
import { NotificationPageSchema, POPUP_NOTIFICATIONS } from '../../contract/notifications'

export const notificationQueries = {
  all: [...USER_KEY, 'notifications'] as const,
  /** A page of the list; reading it marks what it shows as read. */
  list: (page: number, sort: { sort_by?: string; sort_value?: string } = {}) =>
    queryOptions({
      queryKey: [...notificationQueries.all, 'list', page, sort],
      queryFn: ({ signal }) =>
        api.get('notifications', NotificationPageSchema, { signal, query: { page, ...sort } }),
    }),
  /** The popup's newest unread ones (at most two); opening it marks them read. */
  popup: () =>
    queryOptions({
      queryKey: [...notificationQueries.all, 'popup'],
      queryFn: ({ signal }) =>
        api.get('notifications', NotificationPageSchema, {
          signal,
          query: { unread: 1, per_page: POPUP_NOTIFICATIONS },
        }),
      staleTime: 0,
      meta: { persist: false },
    }),
}

export const notificationsApi = {
  remove: (id: number) => api.delete(`notifications/${id}`, MessageReplySchema),
}
