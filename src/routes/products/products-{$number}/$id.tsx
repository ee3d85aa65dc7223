import { createFileRoute } from '@tanstack/react-router'
import { DirectPurchaseForm } from '../../../app/purchase-slots'
import { ProductPage } from '../../../features/catalogue/product-page'
import { catalogueQueries } from '../../../features/catalogue/queries'
import { currentLocale } from '../../../i18n/locale'
import { catalogueId } from '../../-params'

export const Route = createFileRoute('/products/products-{$number}/$id')({
  // The loader stays in the route tree, not in a chunk of its own: the API call starts as the
  // router matches the URL, in parallel with the page's chunk (docs/architecture.md).
  codeSplitGroupings: [['component'], ['errorComponent', 'notFoundComponent', 'pendingComponent']],
  loader: ({ context: { queryClient }, params }) => {
    const id = catalogueId(params)
    void queryClient.ensureQueryData(catalogueQueries.product(currentLocale(), id)).catch(() => {})
    void queryClient.ensureQueryData(catalogueQueries.packages(currentLocale(), id)).catch(() => {})
  },
  component: function Product() {
    const params = Route.useParams()
    return (
      <ProductPage
        key={params.id}
        id={Number(params.id)}
        purchase={(direct) => <DirectPurchaseForm direct={direct} />}
      />
    )
  },
})
