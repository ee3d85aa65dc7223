import { createFileRoute } from '@tanstack/react-router'
import { AboutPage } from '../features/site/about-page'
import { siteQueries } from '../features/site/queries'
import { currentLocale } from '../i18n/locale'

export const Route = createFileRoute('/about-us')({
  loader: ({ context }) => {
    void context.queryClient.ensureQueryData(siteQueries.about(currentLocale())).catch(() => {})
  },
  component: AboutPage,
})
