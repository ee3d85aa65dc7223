import { createFileRoute } from '@tanstack/react-router'
import { CatalogueScreen } from '../../features/console/catalogue-screens'

export const Route = createFileRoute('/admin/catalogue')({
  component: function Catalogue() {
    return <CatalogueScreen screen="catalogue" />
  },
})
