import { createFileRoute } from '@tanstack/react-router'
import { NotificationsPage } from '../../features/notifications/notifications-page'
import { pageSearch } from '../-search'

export const Route = createFileRoute('/_auth/Notifications')({
  validateSearch: pageSearch,
  component: function Notifications() {
    return <NotificationsPage page={Route.useSearch().page} />
  },
})
