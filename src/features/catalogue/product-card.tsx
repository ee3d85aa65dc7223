import { memo } from 'react'
import { Trans } from '@lingui/react/macro'
import type { ProductSummary } from '../../contract/catalogue'
import { FIRST_PICTURE } from '../../contract/constants'
import * as styles from './catalogue.css'
import { AppLink } from '../../ui/nav'
import { useNearScreen } from '../../ui/near-screen'

/** The cards a phone's first screen shows of a grid; the others' pictures wait to be near it. */
export const FIRST_SCREEN_CARDS = 4

function Card({
  name,
  image,
  available,
  eager = false,
  later = false,
  level = 3,
}: {
  name: string
  image?: string | null
  available: boolean
  /** In the first screen of its page: loads at once rather than when laid out. */
  eager?: boolean
  /** Below a phone's first screen: its picture is asked for only when the card nears the screen. */
  later?: boolean
  /** Its name's heading level: 2 in a grid right under the page's title, 3 under a section's. */
  level?: 2 | 3
}) {
  const [near, ref] = useNearScreen(!later)
  const Name = level === 2 ? 'h2' : 'h3'
  return (
    <>
      {image ? (
        <img
          ref={ref}
          className={styles.media}
          src={near ? image : undefined}
          alt=""
          width={400}
          height={400}
          loading={eager ? undefined : 'lazy'}
          decoding="async"
        />
      ) : (
        <div className={styles.media} />
      )}
      <div className={styles.body}>
        <Name className={styles.name}>{name}</Name>
        {!available && (
          <span className={styles.label}>
            <Trans>Unavailable</Trans>
          </span>
        )}
      </div>
    </>
  )
}

/** Available products link to their page; unavailable ones are greyed and cannot be opened. */
function ProductCardOf({
  product,
  later,
  level,
}: {
  product: ProductSummary
  later: boolean
  level?: 2 | 3
}) {
  if (!product.available)
    return (
      <div className={`${styles.card} ${styles.unavailable}`} aria-disabled="true">
        <Card {...product} later={later} level={level} />
      </div>
    )
  return (
    <AppLink
      to="/products/products-{$number}/$id"
      params={{ number: String(product.number), id: String(product.id) }}
      className={styles.card}
    >
      <Card {...product} later={later} level={level} />
    </AppLink>
  )
}

/**
 * A growing grid renders only its new cards: without this, each growth of the home grid (15 at
 * a time, to hundreds) renders every card and its link again, even when its page comes afresh
 * with the same products.
 */
export const ProductCard = memo(
  ProductCardOf,
  ({ product: a, later: laterA, level: levelA }, { product: b, later: laterB, level: levelB }) =>
    laterA === laterB &&
    levelA === levelB &&
    a.id === b.id &&
    a.number === b.number &&
    a.name === b.name &&
    a.image === b.image &&
    a.available === b.available,
)

export { Card as CardContent }

/** The picture of a product or package page: the largest element on a phone, so it comes first. */
export function DetailImage({ src }: { src?: string | null }) {
  if (!src) return null
  return (
    <img
      className={styles.detailImage}
      src={src}
      alt=""
      width={400}
      height={400}
      fetchPriority="high"
      elementtiming={FIRST_PICTURE}
    />
  )
}
