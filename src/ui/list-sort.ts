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
