import type { ReactNode } from 'react'
import type { ProductSummary } from '../../contract/catalogue'
import { FIRST_SCREEN_CARDS, ProductCard } from './product-card'
import * as styles from './catalogue.css'

export function Grid({ children, label }: { children: ReactNode; label?: string }) {
  return (
    <ul className={styles.grid} aria-label={label}>
      {children}
    </ul>
  )
}

/** `level`: its cards' heading level, 2 when the grid comes right under the page's title. */
export function ProductGrid({
  products,
  label,
  level,
}: {
  products: ProductSummary[]
  label?: string
  level?: 2 | 3
}) {
  return (
    <Grid label={label}>
      {products.map((product, index) => (
        <li key={product.id}>
          <ProductCard product={product} later={index >= FIRST_SCREEN_CARDS} level={level} />
        </li>
      ))}
    </Grid>
  )
}

export function Skeletons({ count }: { count: number }) {
  return (
    <Grid>
      {Array.from({ length: count }, (_, i) => (
        <li key={i} className={styles.skeleton} aria-hidden="true">
          <div className={styles.skeletonMedia} />
          <div className={styles.skeletonLine} />
        </li>
      ))}
    </Grid>
  )
}
