import { Trans } from '@lingui/react/macro'
import { useQuery } from '@tanstack/react-query'
import type { DirectPurchase } from '../features/catalogue/product-page'
import { catalogueQueries } from '../features/catalogue/queries'
import { fromPackage, fromProduct } from '../features/ordering/item'
import type { PackageDetail } from '../contract/catalogue'
import { useLocale } from '../i18n/use-locale'
import { lazyPiece } from '../ui/lazy-piece'
import { preloadListed } from '../ui/preload-listed'
import { ORDER_FORM_FILES } from '../api/early-replies'

// The forms (and their dialog and tabs) load only where a page offers one; their many files are
// linked a few at a time first, not all in the task that hydrates the page.
const PurchaseForm = lazyPiece(
  () =>
    preloadListed(ORDER_FORM_FILES)
      .then(() => import('../features/ordering/purchase-form'))
      .then((m) => m.PurchaseForm),
  (state) =>
    state === 'failed' && (
      <p role="status">
        <Trans>The order form needs an internet connection to load.</Trans>
      </p>
    ),
)

/** The catalogue's pages meet the order forms here, so neither feature imports the other. */
export function DirectPurchaseForm({ direct }: { direct: DirectPurchase }) {
  const locale = useLocale()
  const entry = useQuery({
    ...catalogueQueries.package(locale, direct.entry?.id ?? 0),
    enabled: !!direct.entry,
  })
  if (!direct.entry) return <PurchaseForm item={fromProduct(direct.product)} />
  return entry.data ? <PurchaseForm item={fromPackage(entry.data)} /> : null
}

export function PackagePurchaseForm({ pkg }: { pkg: PackageDetail }) {
  return <PurchaseForm item={fromPackage(pkg)} />
}
