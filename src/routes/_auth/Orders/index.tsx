import * as v from 'valibot'
import { createFileRoute } from '@tanstack/react-router'
import { DATE_RANGE_MARK } from '../../../contract/orders'
import { OrdersPage } from '../../../features/orders/orders-page'

/** Every filter may be left out of a link, and a bad value falls back to its default. */
const filter = <T extends v.GenericSchema>(schema: T, fallback: v.InferOutput<T>) =>
  v.fallback(v.optional(schema, fallback), fallback)
const day = v.pipe(v.string(), v.regex(/^(\d{4}-\d{2}-\d{2})?$/))

const Search = v.object({
  status: filter(v.picklist(['', 'COMPLETED', 'CANCELED', 'WAITING']), ''),
  date: filter(v.picklist(['', 'today', 'week', 'month', DATE_RANGE_MARK]), ''),
  start: filter(day, ''),
  end: filter(day, ''),
  page: filter(v.pipe(v.number(), v.integer(), v.minValue(1)), 1),
})

export const Route = createFileRoute('/_auth/Orders/')({
  validateSearch: Search,
  component: function Orders() {
    return <OrdersPage search={Route.useSearch()} />
  },
})
