import { useEffect, useRef, useState } from 'react'
import { useQuery } from '@tanstack/react-query'
import { Trans, useLingui } from '@lingui/react/macro'
import { PAGE_STEP } from '../../contract/catalogue'
import { useLocale } from '../../i18n/use-locale'
import { EmptyState } from '../../ui/empty-state'
import { LoadProblem } from '../../ui/load-problem'
import { SavedNote } from './offline-note'
import { ProductGrid, Skeletons } from './product-grid'
import { catalogueQueries } from './queries'
import * as styles from './catalogue.css'

/** How far below the viewport the next load starts (spec section 9: pull threshold 300). */
export const PULL_THRESHOLD_PX = 300

/**
 * The home product grid. Spec section 4: the page size starts at 15 and grows by 15 per load
 * until the list is no shorter than the total; an IntersectionObserver 300 px ahead of the
 * list's end replaces the throttled scroll handler.
 */
export function HomeGrid() {
  const { t } = useLingui()
  const locale = useLocale()
  const [perPage, setPerPage] = useState(PAGE_STEP)
  const { data, error, refetch, isFetching, isPlaceholderData, dataUpdatedAt } = useQuery(
    catalogueQueries.products(locale, perPage),
  )
  const sentinel = useRef<HTMLDivElement>(null)
  const complete = !!data && data.data.length >= data.total
  const canGrow = !!data && !complete && !isFetching && !isPlaceholderData && !error

  useEffect(() => {
    const target = sentinel.current
    if (!target || !canGrow) return
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) setPerPage((size) => size + PAGE_STEP)
      },
      { rootMargin: `0px 0px ${PULL_THRESHOLD_PX}px 0px` },
    )
    observer.observe(target)
    return () => observer.disconnect()
  }, [canGrow])

  return (
    <section className={styles.section} aria-labelledby="products-heading">
      <h2 id="products-heading" className={styles.heading}>
        <Trans>Products</Trans>
      </h2>
      <SavedNote updatedAt={dataUpdatedAt} />
      {data ? (
        data.data.length ? (
          <ProductGrid products={data.data} label={t`Products`} />
        ) : (
          <EmptyState />
        )
      ) : error ? null : (
        <Skeletons count={PAGE_STEP} />
      )}
      {error && <LoadProblem error={error} onRetry={() => void refetch()} />}
      {data && !complete && isFetching && (
        <Skeletons count={Math.min(PAGE_STEP, data.total - data.data.length)} />
      )}
      <div ref={sentinel} className={styles.sentinel} />
    </section>
  )
}
