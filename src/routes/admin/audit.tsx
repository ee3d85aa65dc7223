import { createFileRoute } from '@tanstack/react-router'
import { AuditPage } from '../../features/console/audit-page'
import { ConsoleGate } from '../../features/console/console-gate'
import { auditSearch } from '../-search'

export const Route = createFileRoute('/admin/audit')({
  validateSearch: auditSearch,
  component: function Audit() {
    return (
      <ConsoleGate>
        <AuditPage search={Route.useSearch()} />
      </ConsoleGate>
    )
  },
})
