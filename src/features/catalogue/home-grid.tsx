import { useEffect, useRef, useState } from 'react'
import { useQueries, useQuery } from '@tanstack/react-query'
import { Trans, useLingui } from '@lingui/react/macro'
import { MAX_PER_PAGE, PAGE_STEP } from '../../contract/constants'
import { useLocale } from '../../i18n/use-locale'
import { EmptyState } from '../../ui/empty-state'
import { LoadProblem } from '../../ui/load-problem'
import { SavedNote } from './offline-note'
import { ProductGrid, Skeletons } from './product-grid'
import { catalogueQueries } from './queries'
import * as styles from './catalogue.css'

/** How far below the viewport the next load starts. */
export const PULL_THRESHOLD_PX = 300

/**
 * The home product grid. The list starts at 15 products and grows by 15 each time its end
 * comes within 300 px of the screen (an IntersectionObserver), until it holds them all: the
 * first page's size grows up to the server's largest page (300), then the pages after it are
 * asked for, 300 at a time.
 */
export function HomeGrid() {
  const { t } = useLingui()
  const locale = useLocale()
  const [size, setSize] = useState(PAGE_STEP)
  const first = useQuery(catalogueQueries.products(locale, Math.min(size, MAX_PER_PAGE)))
  const more = useQueries({
    queries: Array.from({ length: Math.ceil(size / MAX_PER_PAGE) - 1 }, (_, index) =>
      catalogueQueries.products(locale, MAX_PER_PAGE, index + 2),
    ),
  })
  const { data, refetch, dataUpdatedAt } = first
  const error = first.error ?? more.find((query) => query.error)?.error ?? null
  const products = data
    ? [...data.data, ...more.flatMap((query) => query.data?.data ?? [])].slice(0, size)
    : []
  const fetching = first.isFetching || more.some((query) => query.isFetching)
  // All there, or the server has no more (a page came back short): stop asking.
  const complete =
    !!data && (products.length >= data.total || (products.length < size && !fetching))
  const canGrow = !!data && !complete && !fetching && !first.isPlaceholderData && !error

  const sentinel = useRef<HTMLDivElement>(null)
  useEffect(() => {
    const target = sentinel.current
    if (!target || !canGrow) return
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) setSize((shown) => shown + PAGE_STEP)
      },
      { rootMargin: `0px 0px ${PULL_THRESHOLD_PX}px 0px` },
    )
    observer.observe(target)
    return () => observer.disconnect()
    // Observed afresh at each size: past 300 a growth may need no request, and an end still in
    // view must ask again.
  }, [canGrow, size])

  const retry = () => {
    void refetch()
    for (const query of more) if (query.error) void query.refetch()
  }

  return (
    <section className={styles.section} aria-labelledby="products-heading">
      <h2 id="products-heading" className={styles.heading}>
        <Trans>Products</Trans>
      </h2>
      <SavedNote updatedAt={dataUpdatedAt} />
      {data ? (
        products.length ? (
          <ProductGrid products={products} label={t`Products`} />
        ) : (
          <EmptyState />
        )
      ) : error ? null : (
        <Skeletons count={PAGE_STEP} />
      )}
      {error && <LoadProblem error={error} onRetry={retry} />}
      {data && !complete && fetching && (
        <Skeletons count={Math.min(PAGE_STEP, data.total - products.length)} />
      )}
      <div ref={sentinel} className={styles.sentinel} />
    </section>
  )
}
