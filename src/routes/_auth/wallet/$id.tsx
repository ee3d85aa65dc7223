import { createFileRoute } from '@tanstack/react-router'
import { LogPage } from '../../../features/wallet/log-page'
import { walletQueries } from '../../../features/wallet/queries'
import { catalogueId } from '../../-params'

export const Route = createFileRoute('/_auth/wallet/$id')({
  loader: ({ context: { queryClient }, params }) => {
    void queryClient.ensureQueryData(walletQueries.log(catalogueId(params))).catch(() => {})
  },
  component: function PaymentLog() {
    const params = Route.useParams()
    return <LogPage key={params.id} id={Number(params.id)} />
  },
})
