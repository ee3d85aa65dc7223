import { useQuery } from '@tanstack/react-query'
import { Trans, useLingui } from '@lingui/react/macro'
import { useLocale } from '../../i18n/use-locale'
import { useOnline } from '../../ui/use-online'
import { AppLink } from '../../ui/nav'
import { EmptyState } from '../../ui/empty-state'
import { LoadProblem } from '../../ui/load-problem'
import { Pagination } from '../../ui/pagination'
import { ProductGrid, Skeletons } from './product-grid'
import { catalogueQueries } from './queries'
import * as styles from './catalogue.css'

export const SEARCH_SKELETONS = 7

export function SearchPage({ q, page }: { q: string; page: number }) {
  const { t } = useLingui()
  const online = useOnline()
  const { data, error, refetch, isPending } = useQuery({
    ...catalogueQueries.search(useLocale(), q, page),
    enabled: !!q,
  })

  return (
    <section className={styles.section} aria-labelledby="search-heading">
      <h1 id="search-heading" className={styles.heading}>
        <Trans>Results for “{q}”</Trans>
      </h1>
      {!online && !data ? (
        <p className={styles.empty} role="status">
          <Trans>
            Search needs an internet connection. Saved products can still be opened from the home
            page.
          </Trans>
        </p>
      ) : error && !data ? (
        <LoadProblem error={error} onRetry={() => void refetch()} />
      ) : !q ? (
        <EmptyState />
      ) : isPending || !data ? (
        <Skeletons count={SEARCH_SKELETONS} />
      ) : (
        <>
          {data.data.length > 0 && (
            <ProductGrid products={data.data} label={t`Search results`} level={2} />
          )}
          <Pagination
            page={page}
            total={data.total}
            perPage={data.per_page}
            link={(n, props) => <AppLink to="/search" search={{ q, page: n }} {...props} />}
          />
        </>
      )}
    </section>
  )
}
