import { createFileRoute } from '@tanstack/react-router'
import { ConsoleGate } from '../../../features/console/console-gate'
import { CustomersPage } from '../../../features/console/customers-page'
import { customerSearch } from '../../-search'

export const Route = createFileRoute('/admin/customers/')({
  validateSearch: customerSearch,
  component: function Customers() {
    const { q, page } = Route.useSearch()
    return (
      <ConsoleGate>
        <CustomersPage key={q} q={q} page={page} />
      </ConsoleGate>
    )
  },
})
