import type { Key, ReactNode } from 'react'
import { DataList, type Column } from './data-list'
import { NoData } from './load-problem'
import { Pagination, type PageLinkProps } from './pagination'
import { AccountSavedNote } from './saved-note'

/** What a list query gives: a page of rows (docs/api.md, Pages), or why there is none yet. */
export interface PagedQuery<T> {
  data?: { data: T[]; total: number; per_page: number }
  error: Error | null
  refetch: () => unknown
  /** When the page shown was read (0: never). */
  dataUpdatedAt: number
}

/**
 * One page of a list from the API as a table with its page links; while it loads, a loading
 * line, and when it fails, the problem with a retry. Offline, the saved copy says its age.
 */
export function PagedTable<T>({
  query,
  label,
  columns,
  rowKey,
  page,
  link,
}: {
  query: PagedQuery<T>
  label: string
  columns: Column<T>[]
  rowKey: (row: T) => Key
  page: number
  link: (page: number, props: PageLinkProps) => ReactNode
}) {
  const { data, error, refetch, dataUpdatedAt } = query
  if (!data) return <NoData error={error} onRetry={() => void refetch()} />
  return (
    <>
      <AccountSavedNote updatedAt={dataUpdatedAt} />
      {data.data.length > 0 && (
        <DataList label={label} rows={data.data} columns={columns} rowKey={rowKey} />
      )}
      <Pagination page={page} total={data.total} perPage={data.per_page} link={link} />
    </>
  )
}
