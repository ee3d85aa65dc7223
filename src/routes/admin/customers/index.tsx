import { createFileRoute } from '@tanstack/react-router'
import { ConsoleScreen, Screens } from '../../../features/console/console-screen'
import { customerSearch } from '../../-search'

export const Route = createFileRoute('/admin/customers/')({
  validateSearch: customerSearch,
  component: function Customers() {
    const { q, page } = Route.useSearch()
    return (
      <ConsoleScreen>
        <Screens.Customers key={q} q={q} page={page} />
      </ConsoleScreen>
    )
  },
})
