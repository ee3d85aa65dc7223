import { Trans } from '@lingui/react/macro'
import { useQuery } from '@tanstack/react-query'
import type { DirectPurchase } from '../features/catalogue/product-page'
import { catalogueQueries } from '../features/catalogue/queries'
import { fromPackage, fromProduct, type Purchasable } from '../features/ordering/item'
import type { PackageDetail } from '../contract/catalogue'
import { useLocale } from '../i18n/use-locale'
import { lazyPiece, type PieceState } from '../ui/lazy-piece'
import { preloadListed } from '../ui/preload-listed'
import { ORDER_FORM_FILES } from '../api/early-replies'
import { UnavailableDialog } from '../ui/unavailable-piece'

// The forms load only where a page offers one; their many files are linked a few at a time
// first, not all in the task that hydrates the page. A social service's form comes with its
// tabs, which no other form loads. A product's or package's first screen from the server
// carries its form, with its styles, kept as it is (inert) until the form's code has come.
const loadForm = () =>
  preloadListed(ORDER_FORM_FILES).then(() => import('../features/ordering/purchase-form'))
const offline = (state: PieceState) =>
  state === 'failed' && (
    <p role="status">
      <Trans>The order form needs an internet connection to load.</Trans>
    </p>
  )
const PlainForm = lazyPiece(() => loadForm().then((m) => m.PurchaseForm), offline, {
  kept: 'form',
})
const SocialForm = lazyPiece(
  () =>
    Promise.all([loadForm(), import('../features/ordering/service-tabs')]).then(
      ([{ PurchaseForm }, { ServiceTabs }]) =>
        function SocialPurchaseForm({ item }: { item: Purchasable }) {
          return <PurchaseForm item={item} serviceTabs={ServiceTabs} />
        },
    ),
  offline,
  { kept: 'form' },
)
// An item that cannot be bought has its dialog, and no form for the piece to keep.
const PurchaseForm = ({ item }: { item: Purchasable }) =>
  !item.available ? (
    <UnavailableDialog kind="item" />
  ) : item.services.length > 0 ? (
    <SocialForm item={item} />
  ) : (
    <PlainForm item={item} />
  )

/** The forms' code, for the server's first screens (src/entry-server.tsx). */
export const serveOrderForms = () => Promise.all([PlainForm.serve(), SocialForm.serve()])

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
