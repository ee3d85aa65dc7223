import type { ReactNode } from 'react'
import { useQuery } from '@tanstack/react-query'
import { AppLink } from '../../ui/nav'
import type { PackageDetail } from '../../contract/catalogue'
import { useLocale } from '../../i18n/use-locale'
import { LoadProblem } from '../../ui/load-problem'
import { SavedNote } from './offline-note'
import { DetailImage } from './product-card'
import { catalogueQueries } from './queries'
import * as styles from './catalogue.css'

export function PackagePage({
  id,
  purchase,
}: {
  id: number
  purchase?: (pkg: PackageDetail) => ReactNode
}) {
  const locale = useLocale()
  const { data, error, refetch, dataUpdatedAt } = useQuery(catalogueQueries.package(locale, id))

  if (error && !data) return <LoadProblem error={error} onRetry={() => void refetch()} />
  if (!data)
    return (
      <div className={styles.detail} aria-hidden="true">
        <div className={styles.detailImage} />
      </div>
    )

  return (
    <div className={styles.section}>
      <SavedNote updatedAt={dataUpdatedAt} />
      <div className={styles.detail}>
        <DetailImage src={data.image} />
        <div className={styles.facts}>
          <h1 className={styles.heading}>{data.name}</h1>
          <p>
            <AppLink
              to="/products/products-{$number}/$id"
              params={{ number: String(data.number), id: String(data.product_id) }}
            >
              {data.product_name}
            </AppLink>
          </p>
          {data.note && <p>{data.note}</p>}
          {data.minimum_qut_note && <p>{data.minimum_qut_note}</p>}
        </div>
      </div>
      {purchase?.(data)}
    </div>
  )
}
