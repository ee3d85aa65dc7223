import { createFileRoute } from '@tanstack/react-router'
import { ORDER_FILTER_STATUSES } from '../../../contract/constants'
import { OrdersPage } from '../../../features/orders/orders-page'
import { listSearch } from '../../-search'

export const Route = createFileRoute('/_auth/Orders/')({
  validateSearch: listSearch(ORDER_FILTER_STATUSES),
  component: function Orders() {
    return <OrdersPage search={Route.useSearch()} />
  },
})
