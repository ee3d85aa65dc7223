import { createFileRoute } from '@tanstack/react-router'
import { CatalogueScreen } from '../../features/console/catalogue-screens'

export const Route = createFileRoute('/admin/promo')({
  component: function Promo() {
    return <CatalogueScreen screen="promo" />
  },
})
