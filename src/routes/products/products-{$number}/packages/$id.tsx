import { createFileRoute } from '@tanstack/react-router'
import { PackagePurchaseForm } from '../../../../app/purchase-slots'
import { PackagePage } from '../../../../features/catalogue/package-page'
import { catalogueQueries } from '../../../../features/catalogue/queries'
import { currentLocale } from '../../../../i18n/locale'
import { catalogueId } from '../../../-params'

export const Route = createFileRoute('/products/products-{$number}/packages/$id')({
  // The loader stays in the route tree, not in a chunk of its own: the API call starts as the
  // router matches the URL, in parallel with the page's chunk (docs/architecture.md).
  codeSplitGroupings: [['component'], ['errorComponent', 'notFoundComponent', 'pendingComponent']],
  loader: ({ context: { queryClient }, params }) => {
    const id = catalogueId(params)
    void queryClient.ensureQueryData(catalogueQueries.package(currentLocale(), id)).catch(() => {})
  },
  component: function Package() {
    const params = Route.useParams()
    return (
      <PackagePage
        key={params.id}
        id={Number(params.id)}
        purchase={(pkg) => <PackagePurchaseForm pkg={pkg} />}
      />
    )
  },
})
