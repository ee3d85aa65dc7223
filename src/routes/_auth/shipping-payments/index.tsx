import * as v from 'valibot'
import { createFileRoute } from '@tanstack/react-router'
import { ChargesPage } from '../../../features/wallet/charges-page'

const Search = v.object({
  page: v.fallback(v.optional(v.pipe(v.number(), v.integer(), v.minValue(1)), 1), 1),
})

export const Route = createFileRoute('/_auth/shipping-payments/')({
  validateSearch: Search,
  component: function ShippingPayments() {
    return <ChargesPage page={Route.useSearch().page} />
  },
})
