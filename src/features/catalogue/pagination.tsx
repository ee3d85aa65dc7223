import { Link } from '@tanstack/react-router'
import { Trans, useLingui } from '@lingui/react/macro'
import * as styles from './catalogue.css'

/** Page links for the search results; page = selected index + 1 (spec section 9). */
export function SearchPagination({ q, page, pages }: { q: string; page: number; pages: number }) {
  const { t } = useLingui()
  if (pages === 0)
    return (
      <p className={styles.empty}>
        <Trans>There are no items to show</Trans>
      </p>
    )
  if (pages === 1) return null
  return (
    <nav aria-label={t`Pages`}>
      <ol className={styles.pagination}>
        {Array.from({ length: pages }, (_, index) => (
          <li key={index}>
            <Link
              to="/search"
              search={{ q, page: index + 1 }}
              className={styles.pageLink}
              aria-current={index + 1 === page ? 'page' : undefined}
              aria-label={t`Page ${index + 1}`}
            >
              {index + 1}
            </Link>
          </li>
        ))}
      </ol>
    </nav>
  )
}
