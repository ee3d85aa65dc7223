import { createFileRoute } from '@tanstack/react-router'
import { catalogueQueries } from '../features/catalogue/queries'
import { HomePage } from '../app/home-page'
import { siteQueries } from '../features/site/queries'
import { currentLocale } from '../i18n/locale'

export const Route = createFileRoute('/')({
  loader: ({ context: { queryClient } }) => {
    // Start them all with the navigation; the page shows skeletons until they arrive.
    void queryClient.ensureQueryData(siteQueries.slider()).catch(() => {})
    void queryClient.ensureQueryData(catalogueQueries.products(currentLocale())).catch(() => {})
    void queryClient.ensureQueryData(catalogueQueries.groups(currentLocale())).catch(() => {})
  },
  component: HomePage,
})
