import { createFileRoute } from '@tanstack/react-router'
import { NotificationsPage } from '../../features/notifications/notifications-page'
import { sortedPageSearch } from '../-search'

export const Route = createFileRoute('/_auth/Notifications')({
  validateSearch: sortedPageSearch,
  component: function Notifications() {
    return <NotificationsPage {...Route.useSearch()} />
  },
})
