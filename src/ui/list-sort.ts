import type { SortValue } from '../contract/constants'

/**
 * The sorts a customer picks for a list, kept in the address as `sort`: newest first (none),
 * oldest first, and for lists of money the highest or the lowest amount first.
 */
export const LIST_SORT_CHOICES = ['', 'oldest', 'highest', 'lowest'] as const
export type ListSortChoice = (typeof LIST_SORT_CHOICES)[number]

/** What the API is asked for a sort (docs/api.md, Lists); `amount` is the list's money field. */
export function sortQuery(
  sort: ListSortChoice,
  amount?: 'total_price' | 'value',
): { sort_by?: string; sort_value?: SortValue } {
  switch (sort) {
    case '':
      return {}
    case 'oldest':
      return { sort_by: 'date', sort_value: 'asc' }
    case 'highest':
    case 'lowest':
      return amount ? { sort_by: amount, sort_value: sort === 'highest' ? 'desc' : 'asc' } : {}
  }
}

/** A dated list's filters (the orders, the wallet's history), as its page keeps them. */
export interface DatedListFilters<S extends string = string> {
  status?: S
  sort_by?: string
  sort_value?: string
  start_date?: string
  end_date?: string
  page: number
}

/** Those filters as the list's call reads them: whole days as `YYYY-MM-DD 00:00:00`. */
export function datedListQuery({ start_date, end_date, ...rest }: DatedListFilters) {
  const day = (value: string | undefined) => value && `${value} 00:00:00`
  return { ...rest, start_date: day(start_date), end_date: day(end_date) }
}
