import { createFileRoute } from '@tanstack/react-router'
import { ConsoleGate } from '../../../features/console/console-gate'
import { CustomerPage } from '../../../features/console/customer-page'
import { catalogueId } from '../../-params'
import { pageSearch } from '../../-search'

export const Route = createFileRoute('/admin/customers/$id')({
  validateSearch: pageSearch,
  beforeLoad: ({ params }) => void catalogueId(params),
  component: function Customer() {
    const { id } = Route.useParams()
    const { page } = Route.useSearch()
    return (
      <ConsoleGate>
        <CustomerPage key={id} id={Number(id)} page={page} />
      </ConsoleGate>
    )
  },
})
