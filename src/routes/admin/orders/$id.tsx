import { createFileRoute } from '@tanstack/react-router'
import { ConsoleScreen, Screens } from '../../../features/console/console-screen'
import { catalogueId } from '../../-params'

/** One order in the console, with its actions (docs/api.md, Console). */
export const Route = createFileRoute('/admin/orders/$id')({
  component: function ConsoleOrder() {
    const id = catalogueId(Route.useParams())
    return (
      <ConsoleScreen>
        <Screens.Order key={id} id={id} />
      </ConsoleScreen>
    )
  },
})
