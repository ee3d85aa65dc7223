import { createFileRoute } from '@tanstack/react-router'
import { WALLET_LOG_STATUSES } from '../../../contract/constants'
import { WalletPage } from '../../../features/wallet/wallet-page'
import { listSearch } from '../../-search'

export const Route = createFileRoute('/_auth/wallet/')({
  validateSearch: listSearch(WALLET_LOG_STATUSES),
  component: function Wallet() {
    return <WalletPage search={Route.useSearch()} />
  },
})
