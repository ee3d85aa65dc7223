import { createFileRoute } from '@tanstack/react-router'
import { ConsoleGate } from '../../../features/console/console-gate'
import { OrderPage } from '../../../features/console/order-page'
import { catalogueId } from '../../-params'

/** One order in the console, with its actions (docs/api.md, Console). */
export const Route = createFileRoute('/admin/orders/$id')({
  component: function ConsoleOrder() {
    const id = catalogueId(Route.useParams())
    return (
      <ConsoleGate>
        <OrderPage key={id} id={id} />
      </ConsoleGate>
    )
  },
})
