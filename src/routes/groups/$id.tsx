import { createFileRoute } from '@tanstack/react-router'
import { GroupPage } from '../../features/catalogue/group-page'
import { catalogueQueries } from '../../features/catalogue/queries'
import { currentLocale } from '../../i18n/locale'
import { catalogueId } from '../-params'

export const Route = createFileRoute('/groups/$id')({
  loader: ({ context: { queryClient }, params }) => {
    const id = catalogueId(params)
    void queryClient.ensureQueryData(catalogueQueries.group(currentLocale(), id)).catch(() => {})
  },
  component: function Group() {
    const params = Route.useParams()
    return <GroupPage key={params.id} id={Number(params.id)} />
  },
})
