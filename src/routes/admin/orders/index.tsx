import { createFileRoute } from '@tanstack/react-router'
import { ConsoleScreen, Screens } from '../../../features/console/console-screen'
import { consoleOrderSearch } from '../../../features/console/orders-search'

/** The console's orders: every customer's, searched and filtered (docs/api.md, Console). */
export const Route = createFileRoute('/admin/orders/')({
  validateSearch: consoleOrderSearch,
  component: function ConsoleOrders() {
    return (
      <ConsoleScreen>
        <Screens.Orders search={Route.useSearch()} />
      </ConsoleScreen>
    )
  },
})
