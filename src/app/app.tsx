import { StrictMode } from 'react'
import { i18n } from '@lingui/core'
import { I18nProvider } from '@lingui/react'
import { RouterProvider } from '@tanstack/react-router'
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query'
import { DirectionProvider } from '@radix-ui/react-direction'
import { LOCALES } from '../i18n/locale'
import { useLocale } from '../i18n/use-locale'
import type { createAppRouter } from '../router'

/**
 * The storefront's whole tree: the same in the browser and in the server's first screen of
 * home, so the browser can hydrate what the server rendered.
 */
export function App({
  queryClient,
  router,
}: {
  queryClient: QueryClient
  router: ReturnType<typeof createAppRouter>
}) {
  const locale = useLocale()
  return (
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <I18nProvider i18n={i18n}>
          <DirectionProvider dir={LOCALES[locale].rtl ? 'rtl' : 'ltr'}>
            <RouterProvider router={router} />
          </DirectionProvider>
        </I18nProvider>
      </QueryClientProvider>
    </StrictMode>
  )
}
