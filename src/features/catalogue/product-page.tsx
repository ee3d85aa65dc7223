import type { ReactNode } from 'react'
import { useQuery } from '@tanstack/react-query'
import { AppLink } from '../../ui/nav'
import { Trans, useLingui } from '@lingui/react/macro'
import type { Package, ProductDetail } from '../../contract/catalogue'
import { useLocale } from '../../i18n/use-locale'
import { UnavailableDialog } from '../../ui/unavailable-piece'
import { EmptyState } from '../../ui/empty-state'
import { LoadProblem } from '../../ui/load-problem'
import { SavedNote } from './offline-note'
import { Gallery } from './gallery'
import { CardContent, FIRST_SCREEN_CARDS } from './product-card'
import { Grid, Skeletons } from './product-grid'
import { catalogueQueries } from './queries'
import * as styles from './catalogue.css'

/**
 * An entry with merge_to opens that product; an available package opens its own page. The
 * first screen's pictures load at once, the others when their card nears the screen.
 */
function PackageCard({ entry, first }: { entry: Package; first: boolean }) {
  const place = { eager: first, later: !first }
  if (entry.merge_to)
    return (
      <AppLink
        to="/products/products-{$number}/$id"
        params={{ number: String(entry.number), id: String(entry.merge_to) }}
        className={styles.card}
      >
        <CardContent {...entry} available {...place} />
      </AppLink>
    )
  if (!entry.available)
    return (
      <div className={`${styles.card} ${styles.unavailable}`} aria-disabled="true">
        <CardContent {...entry} available={false} {...place} />
      </div>
    )
  return (
    <AppLink
      to="/products/products-{$number}/packages/$id"
      params={{ number: String(entry.number), id: String(entry.id) }}
      className={styles.card}
    >
      <CardContent {...entry} available {...place} />
    </AppLink>
  )
}

export function isProductUnavailable(
  product: Pick<ProductDetail, 'is_available' | 'force_unavailable'>,
) {
  return !product.is_available || product.force_unavailable
}

export function ProductHeader({ product }: { product: ProductDetail }) {
  const { group_id: groupId, group_name: groupName } = product
  return (
    <div className={styles.detail}>
      <Gallery product={product} />
      <div className={styles.facts}>
        <h1 className={styles.heading}>{product.name}</h1>
        {product.note && <p>{product.note}</p>}
        {groupId != null && groupName && (
          <AppLink to="/groups/$id" params={{ id: String(groupId) }} className={styles.groupLink}>
            <Trans>More in {groupName}</Trans>
          </AppLink>
        )}
      </div>
    </div>
  )
}

/**
 * A token product, or one whose only entry is not a package, is bought right here; the entry
 * is returned so the page can offer its form. A product with no entries at all (social
 * services, crypto) has nothing else to choose, so it is bought here too.
 */
export function directEntry(product: ProductDetail, entries: Package[] | undefined) {
  if (product.istoken || entries?.length === 0) return { product, entry: null }
  if (entries?.length === 1 && entries[0]!.type !== 'package')
    return { product, entry: entries[0]! }
  return null
}

export type DirectPurchase = NonNullable<ReturnType<typeof directEntry>>

export function ProductPage({
  id,
  purchase,
}: {
  id: number
  purchase?: (direct: DirectPurchase) => ReactNode
}) {
  const { t } = useLingui()
  const locale = useLocale()
  const product = useQuery(catalogueQueries.product(locale, id))
  const packages = useQuery(catalogueQueries.packages(locale, id))

  if (product.error && !product.data)
    return <LoadProblem error={product.error} onRetry={() => void product.refetch()} />
  if (!product.data)
    return (
      <div className={styles.section}>
        <div className={styles.detail} aria-hidden="true">
          <div className={styles.detailImage} />
        </div>
        <Skeletons count={4} />
      </div>
    )

  const direct = directEntry(product.data, packages.data?.data)
  return (
    <div className={styles.section}>
      <SavedNote updatedAt={product.dataUpdatedAt} />
      <ProductHeader product={product.data} />
      {isProductUnavailable(product.data) ? (
        // One dialog, not the purchase form's own as well.
        <UnavailableDialog kind="product" />
      ) : direct && purchase ? (
        purchase(direct)
      ) : (
        <section className={styles.section} aria-labelledby="packages-heading">
          <h2 id="packages-heading" className={styles.heading}>
            <Trans>Packages</Trans>
          </h2>
          {packages.data ? (
            packages.data.data.length ? (
              <Grid label={t`Packages`}>
                {packages.data.data.map((entry, index) => (
                  <li key={entry.id}>
                    {/* The first four are on a phone's first screen; their pictures are asked
                        for with the page's reply (docs/api.md, The first screen). */}
                    <PackageCard entry={entry} first={index < FIRST_SCREEN_CARDS} />
                  </li>
                ))}
              </Grid>
            ) : (
              <EmptyState />
            )
          ) : packages.error ? (
            <LoadProblem error={packages.error} onRetry={() => void packages.refetch()} />
          ) : (
            <Skeletons count={4} />
          )}
        </section>
      )}
    </div>
  )
}
