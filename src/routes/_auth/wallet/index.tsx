import { createFileRoute } from '@tanstack/react-router'
import { WALLET_LOG_STATUSES } from '../../../contract/wallet'
import { WalletPage } from '../../../features/wallet/wallet-page'
import { listSearch } from '../../-list-search'

export const Route = createFileRoute('/_auth/wallet/')({
  validateSearch: listSearch(WALLET_LOG_STATUSES),
  component: function Wallet() {
    return <WalletPage search={Route.useSearch()} />
  },
})
