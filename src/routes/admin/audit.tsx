import { createFileRoute } from '@tanstack/react-router'
import { ConsoleScreen, Screens } from '../../features/console/console-screen'
import { auditSearch } from '../-search'

export const Route = createFileRoute('/admin/audit')({
  validateSearch: auditSearch,
  component: function Audit() {
    return (
      <ConsoleScreen>
        <Screens.Audit search={Route.useSearch()} />
      </ConsoleScreen>
    )
  },
})
