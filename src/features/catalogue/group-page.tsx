import { useQuery } from '@tanstack/react-query'
import { Trans } from '@lingui/react/macro'
import { useLocale } from '../../i18n/use-locale'
import { EmptyState } from '../../ui/empty-state'
import { LoadProblem } from '../../ui/load-problem'
import { SavedNote } from './offline-note'
import { ProductGrid, Skeletons } from './product-grid'
import { catalogueQueries } from './queries'
import * as styles from './catalogue.css'

export function GroupPage({ id }: { id: number }) {
  const { data, error, refetch, dataUpdatedAt } = useQuery(catalogueQueries.group(useLocale(), id))
  if (error && !data) return <LoadProblem error={error} onRetry={() => void refetch()} />
  return (
    <section className={styles.section} aria-labelledby="group-heading">
      <SavedNote updatedAt={dataUpdatedAt} />
      <h1 id="group-heading" className={styles.heading}>
        {data?.name ?? <Trans>Products</Trans>}
      </h1>
      {data ? (
        data.products.length ? (
          <ProductGrid products={data.products} label={data.name} level={2} />
        ) : (
          <EmptyState />
        )
      ) : (
        <Skeletons count={8} />
      )}
    </section>
  )
}
