import { sql, type SelectQueryBuilder } from 'kysely'
import { MAX_PER_PAGE, PAGE_STEP } from '../../src/contract/catalogue'

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
 * columns and the order (`newestFirst` for most lists), this adds the page's limit and offset
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

/** Whole rows, newest first (ties by id): the order of the user's lists. */
export const newestFirst = <DB, TB extends keyof DB, O>(query: SelectQueryBuilder<DB, TB, O>) =>
  query.selectAll().orderBy(sql.ref('created_at'), 'desc').orderBy(sql.ref('id'), 'desc')

/** A page's rows turned into their replies. */
export const mapPage = <R, T>(page: Page<R>, wire: (row: R) => T): Page<T> => ({
  ...page,
  data: page.data.map(wire),
})
