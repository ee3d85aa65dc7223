import { createFileRoute } from '@tanstack/react-router'
import { ChargePage } from '../../../features/wallet/charge-page'
import { walletQueries } from '../../../features/wallet/queries'
import { catalogueId } from '../../-params'

export const Route = createFileRoute('/_auth/shipping-payments/$id')({
  loader: ({ context: { queryClient }, params }) => {
    void queryClient.ensureQueryData(walletQueries.charge(catalogueId(params))).catch(() => {})
  },
  component: function ShippingPayment() {
    const params = Route.useParams()
    return <ChargePage key={params.id} id={Number(params.id)} />
  },
})
