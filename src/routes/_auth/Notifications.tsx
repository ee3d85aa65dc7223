import * as v from 'valibot'
import { createFileRoute } from '@tanstack/react-router'
import { NotificationsPage } from '../../features/notifications/notifications-page'

const Search = v.object({
  page: v.fallback(v.optional(v.pipe(v.number(), v.integer(), v.minValue(1)), 1), 1),
})

export const Route = createFileRoute('/_auth/Notifications')({
  validateSearch: Search,
  component: function Notifications() {
    return <NotificationsPage page={Route.useSearch().page} />
  },
})
