import { createFileRoute } from '@tanstack/react-router'
import { OrderPage } from '../../../features/orders/order-page'
import { orderQueries } from '../../../features/orders/queries'
import { catalogueId } from '../../-params'

export const Route = createFileRoute('/_auth/Orders/$id')({
  loader: ({ context: { queryClient }, params }) => {
    void queryClient.ensureQueryData(orderQueries.detail(catalogueId(params))).catch(() => {})
  },
  component: function Order() {
    const params = Route.useParams()
    return <OrderPage key={params.id} id={Number(params.id)} />
  },
})
