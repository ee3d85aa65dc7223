import { createFileRoute } from '@tanstack/react-router'
import { ChargesPage } from '../../../features/wallet/charges-page'
import { sortedPageSearch } from '../../-search'

export const Route = createFileRoute('/_auth/shipping-payments/')({
  validateSearch: sortedPageSearch,
  component: function ShippingPayments() {
    return <ChargesPage {...Route.useSearch()} />
  },
})
