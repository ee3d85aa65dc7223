import { createFileRoute } from '@tanstack/react-router'
import { ConsoleGate } from '../../../features/console/console-gate'
import { OrdersPage } from '../../../features/console/orders-page'
import { consoleOrderSearch } from '../../../features/console/orders-search'

/** The console's orders: every customer's, searched and filtered (docs/api.md, Console). */
export const Route = createFileRoute('/admin/orders/')({
  validateSearch: consoleOrderSearch,
  component: function ConsoleOrders() {
    return (
      <ConsoleGate>
        <OrdersPage search={Route.useSearch()} />
      </ConsoleGate>
    )
  },
})
