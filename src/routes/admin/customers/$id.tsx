import { createFileRoute } from '@tanstack/react-router'
import { ConsoleScreen, Screens } from '../../../features/console/console-screen'
import { catalogueId } from '../../-params'
import { pageSearch } from '../../-search'

export const Route = createFileRoute('/admin/customers/$id')({
  validateSearch: pageSearch,
  beforeLoad: ({ params }) => void catalogueId(params),
  component: function Customer() {
    const { id } = Route.useParams()
    const { page } = Route.useSearch()
    return (
      <ConsoleScreen>
        <Screens.Customer key={id} id={Number(id)} page={page} />
      </ConsoleScreen>
    )
  },
})
