import { createFileRoute } from '@tanstack/react-router'
import { ChargingPage } from '../../features/wallet/charging-page'

export const Route = createFileRoute('/_auth/charging-the-wallet')({
  component: ChargingPage,
})
