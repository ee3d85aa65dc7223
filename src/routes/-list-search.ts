import * as v from 'valibot'
import { DATE_RANGE_MARK } from '../contract/orders'

/** Every filter may be left out of a link, and a bad value falls back to its default. */
const filter = <T extends v.GenericSchema>(schema: T, fallback: v.InferOutput<T>) =>
  v.fallback(v.optional(schema, fallback), fallback)
const day = v.pipe(v.string(), v.regex(/^(\d{4}-\d{2}-\d{2})?$/))

/** The search of a filtered, paged list (orders, payment logs): a status, a date, a page. */
export function listSearch<S extends string>(statuses: readonly S[]) {
  return v.object({
    status: filter(v.picklist(['', ...statuses] as ['', ...S[]]), ''),
    date: filter(v.picklist(['', 'today', 'week', 'month', DATE_RANGE_MARK]), ''),
    start: filter(day, ''),
    end: filter(day, ''),
    page: filter(v.pipe(v.number(), v.integer(), v.minValue(1)), 1),
  })
}
