import type { ReactNode } from 'react'
import { useLingui } from '@lingui/react/macro'
import { EmptyState } from './empty-state'
import * as styles from './pagination.css'

export interface PageLinkProps {
  className: string
  'aria-current': 'page' | undefined
  'aria-label': string
  children: ReactNode
}

/**
 * Page links under a list: pages = ceil(total / per_page), page n is index + 1, and no pages
 * at all says there is nothing to show. Each link is the caller's (a router Link to the same
 * page with another `page`), made from the props given.
 */
export function Pagination({
  page,
  total,
  perPage,
  link,
}: {
  page: number
  total: number
  perPage: number
  link: (page: number, props: PageLinkProps) => ReactNode
}) {
  const { t } = useLingui()
  const pages = perPage > 0 ? Math.ceil(total / perPage) : 0
  if (pages === 0) return <EmptyState />
  if (pages === 1) return null
  return (
    <nav aria-label={t`Pages`}>
      <ol className={styles.list}>
        {Array.from({ length: pages }, (_, index) => (
          <li key={index}>
            {link(index + 1, {
              className: styles.link,
              'aria-current': index + 1 === page ? 'page' : undefined,
              'aria-label': t`Page ${index + 1}`,
              children: index + 1,
            })}
          </li>
        ))}
      </ol>
    </nav>
  )
}
