import type { SearchSchemaInput } from '@tanstack/react-router'
import { DATE_RANGE_MARK } from '../contract/constants'
import { LIST_SORT_CHOICES, type ListSortChoice } from '../ui/list-sort'

/**
 * The checks of what a link's search carries. The routes are on every first load, so these
 * are plain functions, not valibot schemas (valibot comes with the first API reply). A filter's
 * bad or missing value falls back to its default; an optional value of the wrong type is
 * refused, and the route shows its error.
 */

/**
 * What a link gives: every key optional (the router then types links with it). What the URL
 * holds may be anything, so the checks take each value as unknown.
 */
export type SearchInput<T> = Partial<T> & SearchSchemaInput

/** A page number: a whole number from 1; page 1 otherwise. */
export const pageParam = (value: unknown): number =>
  typeof value === 'number' && Number.isInteger(value) && value >= 1 ? value : 1

/** A text; `fallback` otherwise. */
export const textParam = (value: unknown, fallback = ''): string =>
  typeof value === 'string' ? value : fallback

/** One of `values`; `fallback` otherwise. */
const choiceParam = <T extends string>(values: readonly T[], value: unknown, fallback: T) =>
  values.includes(value as T) ? (value as T) : fallback

/** Absent, or a value of `type`. */
export function optionalParam<T extends 'string' | 'number'>(
  key: string,
  value: unknown,
  type: T,
): (T extends 'string' ? string : number) | undefined {
  if (value === undefined) return undefined
  if (typeof value !== type || Number.isNaN(value))
    throw new TypeError(`Invalid type: ${key} should be a ${type}`)
  return value as T extends 'string' ? string : number
}

/** A search's results: what was searched for, and the page. */
export const searchPageSearch = (search: SearchInput<{ q: string; page: number }>) => ({
  q: textParam(search.q),
  page: pageParam(search.page),
})

/** Sign-in's: where to go after it, and whether a password was just changed. */
export const signInSearch = (search: SearchInput<{ redirect: string; reset: number }>) => ({
  redirect: optionalParam('redirect', search.redirect, 'string'),
  reset: optionalParam('reset', search.reset, 'number'),
})

/** A page of a list: the page only. */
export const pageSearch = (search: SearchInput<{ page: number }>) => ({
  page: pageParam(search.page),
})

/** A sort a customer picked (src/ui/list-sort.ts); newest first otherwise. */
const sortParam = (value: unknown) => choiceParam(LIST_SORT_CHOICES, value, '')

/** A page of a sorted list: the sort and the page. */
export const sortedPageSearch = (search: SearchInput<{ sort: ListSortChoice; page: number }>) => ({
  sort: sortParam(search.sort),
  page: pageParam(search.page),
})

const DATE_PRESETS = ['', 'today', 'week', 'month', DATE_RANGE_MARK] as const
const day = (value: unknown) => {
  const text = textParam(value)
  return /^(\d{4}-\d{2}-\d{2})?$/.test(text) ? text : ''
}

interface ListSearch<S extends string> {
  status: '' | S
  sort: ListSortChoice
  date: (typeof DATE_PRESETS)[number]
  start: string
  end: string
  page: number
}

/** The search of a filtered, paged list (orders, payment logs): a status, a date, a sort, a page. */
export function listSearch<S extends string>(statuses: readonly S[]) {
  return (search: SearchInput<ListSearch<S>>): ListSearch<S> => ({
    status: choiceParam<'' | S>(['', ...statuses], search.status, ''),
    sort: sortParam(search.sort),
    date: choiceParam(DATE_PRESETS, search.date, ''),
    start: day(search.start),
    end: day(search.end),
    page: pageParam(search.page),
  })
}

/** A text typed in a console filter: one the address reads as a number (a phone) is its digits. */
const typedText = (value: unknown): string =>
  typeof value === 'number' ? String(value) : textParam(value)

/** The console's customer search: the text and the page. */
export const customerSearch = (search: SearchInput<{ q: string; page: number }>) => ({
  q: typedText(search.q),
  page: pageParam(search.page),
})

/** The console's audit log filters (docs/api.md, GET /api/admin/audit) and the page. */
export const auditSearch = (
  search: SearchInput<{
    operator: string
    action: string
    subject: string
    start: string
    end: string
    page: number
  }>,
) => ({
  operator: typedText(search.operator),
  action: textParam(search.action),
  subject: typedText(search.subject),
  start: textParam(search.start),
  end: textParam(search.end),
  page: pageParam(search.page),
})
