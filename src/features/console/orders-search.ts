import type { SearchSchemaInput } from '@tanstack/react-router'
import { ORDER_STATUSES } from '../../contract/constants'

/*
 * What the console's order list reads from its address: plain functions, as the routes' checks
 * are (src/routes/-search.ts), since routes are in the first load.
 */

/** What a link gives: every key optional (the router then types links with it). */
type SearchInput<T> = Partial<T> & SearchSchemaInput

const textParam = (value: unknown) => (typeof value === 'string' ? value : '')
const pageParam = (value: unknown) =>
  typeof value === 'number' && Number.isInteger(value) && value >= 1 ? value : 1

export type ConsoleOrderStatus = (typeof ORDER_STATUSES)[number]

export interface ConsoleOrderSearch {
  status: '' | ConsoleOrderStatus
  customer: string
  product: string
  /** Days in the store's time zone, YYYY-MM-DD, or empty. */
  from: string
  to: string
  page: number
}

const day = (value: unknown) => {
  const text = textParam(value)
  return /^\d{4}-\d{2}-\d{2}$/.test(text) ? text : ''
}

export const consoleOrderSearch = (
  search: SearchInput<ConsoleOrderSearch>,
): ConsoleOrderSearch => ({
  status: ORDER_STATUSES.includes(search.status as ConsoleOrderStatus)
    ? (search.status as ConsoleOrderStatus)
    : '',
  customer: textParam(search.customer).slice(0, 100),
  product: textParam(search.product).slice(0, 100),
  from: day(search.from),
  to: day(search.to),
  page: pageParam(search.page),
})
