import { createFileRoute } from '@tanstack/react-router'
import { ChargesPage } from '../../../features/wallet/charges-page'
import { pageSearch } from '../../-search'

export const Route = createFileRoute('/_auth/shipping-payments/')({
  validateSearch: pageSearch,
  component: function ShippingPayments() {
    return <ChargesPage page={Route.useSearch().page} />
  },
})
