import { sql, type SelectQueryBuilder } from 'kysely'
import { MAX_PER_PAGE, PAGE_STEP } from '../../src/contract/catalogue'
import { SORT_VALUES, type SortValue } from '../../src/contract/constants'
import { ValidationError, type FieldProblem } from './errors'

/** A row id from a path or a field: a positive whole number, or undefined. */
export const idParam = (text: string | undefined): number | undefined =>
  text !== undefined && /^[1-9]\d{0,14}$/.test(text.trim()) ? Number(text) : undefined

/** A positive whole number from a query, or undefined when it is missing or unusable. */
const positiveInt = (text: string | undefined): number | undefined =>
  text !== undefined && /^\d{1,9}$/.test(text.trim()) && Number(text) > 0 ? Number(text) : undefined

export interface PageRequest {
  page: number
  perPage: number
}

/**
 * page and per_page as Laravel reads them: anything unusable falls back to the default (page 1
 * and `perPage`), and per_page is capped.
 */
export function pageRequest(
  query: { page?: string; per_page?: string },
  {
    perPage = PAGE_STEP,
    maxPerPage = MAX_PER_PAGE,
  }: { perPage?: number; maxPerPage?: number } = {},
): PageRequest {
  return {
    page: positiveInt(query.page) ?? 1,
    perPage: Math.min(positiveInt(query.per_page) ?? perPage, maxPerPage),
  }
}

/** A Laravel-style page of a list: the items with their total and the page's place. */
export interface Page<T> {
  data: T[]
  total: number
  per_page: number
  current_page: number
  last_page: number
}

export function pageOf<T>(data: T[], total: number, { page, perPage }: PageRequest): Page<T> {
  return {
    data,
    total,
    per_page: perPage,
    current_page: page,
    last_page: Math.max(1, Math.ceil(total / perPage)),
  }
}

/**
 * One page of a list and the size of the whole list, from one filtered query: `rows` picks the
 * columns and the order (`sortedBy` for the user's lists), this adds the page's limit and offset
 * and counts the filtered rows beside it.
 */
export async function queryPage<DB, TB extends keyof DB, O, R>(
  filtered: SelectQueryBuilder<DB, TB, O>,
  request: PageRequest,
  rows: (query: SelectQueryBuilder<DB, TB, O>) => SelectQueryBuilder<DB, TB, R>,
): Promise<Page<R>> {
  const [counted, data] = await Promise.all([
    filtered
      .select(sql<number | string>`count(*)`.as('total'))
      .$castTo<{ total: number | string }>()
      .executeTakeFirstOrThrow(),
    rows(filtered)
      .limit(request.perPage)
      .offset((request.page - 1) * request.perPage)
      .execute(),
  ])
  return pageOf(data, Number(counted.total), request)
}

/** How a list is sorted: a column and a direction (ties follow the id the same way). */
export interface ListSort {
  column: string
  direction: SortValue
}

/** A list's filters and sorts as a call gives them (docs/api.md, Lists). */
export interface ListQuery {
  sort_by?: string
  sort_value?: string
  state?: string
}

const given = (text: string | undefined) => text?.trim() || undefined

/**
 * The sort and the state a list call asks for: `sort_by` one of the list's `sorts` (its reply's
 * field names: `date`, or `created_at`, is when the row was made), `sort_value` asc or desc (desc when absent:
 * the newest, the highest first), `state` one of `states` where the list has one. Anything
 * else is a 422 that names what the list takes. Absent or empty, the list is newest first.
 */
function listRequest<S extends string>(
  query: ListQuery,
  { sorts, states = [] }: { sorts: readonly string[]; states?: readonly S[] },
): { sort: ListSort; state: S | undefined } {
  const problems: FieldProblem[] = []
  // `created_at`, the column behind `date`, reads the same.
  const sortBy = given(query.sort_by)?.replace(/^created_at$/, 'date') ?? 'date'
  if (!sorts.includes(sortBy))
    problems.push({
      field: 'sort_by',
      id: 'list.sort_by.invalid',
      values: { fields: sorts.join(', ') },
    })
  const direction = given(query.sort_value)?.toLowerCase() ?? 'desc'
  if (!(SORT_VALUES as readonly string[]).includes(direction))
    problems.push({ field: 'sort_value', id: 'list.sort_value.invalid' })
  const stateText = given(query.state)
  const state = states.find((s) => s.toLowerCase() === stateText?.toLowerCase())
  if (stateText && !state)
    problems.push(
      states.length
        ? { field: 'state', id: 'list.state.invalid', values: { states: states.join(', ') } }
        : { field: 'state', id: 'list.state.none' },
    )
  if (problems.length) throw new ValidationError(problems, {})
  return {
    sort: { column: sortBy === 'date' ? 'created_at' : sortBy, direction: direction as SortValue },
    state,
  }
}

/**
 * A user's list call (docs/api.md, Lists): the page it asks for (`per_page` only where the list
 * has `maxPerPage`), its sort and its state, checked as `listRequest` does; `page` then gives one
 * page of the filtered rows in that order.
 */
export function listCall<S extends string>(
  query: ListQuery & { page?: string; per_page?: string },
  spec: { sorts: readonly string[]; states?: readonly S[]; perPage: number; maxPerPage?: number },
) {
  const request = pageRequest(spec.maxPerPage ? query : { page: query.page }, spec)
  const { sort, state } = listRequest(query, spec)
  return {
    state,
    page: <DB, TB extends keyof DB, O>(filtered: SelectQueryBuilder<DB, TB, O>) =>
      queryPage(filtered, request, sortedBy(sort)),
  }
}

/** Whole rows in the order `sort` names, ties by id the same way. */
const sortedBy =
  ({ column, direction }: ListSort) =>
  <DB, TB extends keyof DB, O>(query: SelectQueryBuilder<DB, TB, O>) =>
    query.selectAll().orderBy(sql.ref(column), direction).orderBy(sql.ref('id'), direction)

/** A page's rows turned into their replies. */
export const mapPage = <R, T>(page: Page<R>, wire: (row: R) => T): Page<T> => ({
  ...page,
  data: page.data.map(wire),
})
