import { StrictMode, type ReactNode } from 'react'
import { i18n } from '@lingui/core'
import { I18nProvider } from '@lingui/react'
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query'
import type { Navigation } from '../ui/nav'
import { Shell } from './shell'

/**
 * The storefront's whole tree: the query cache, the messages and the shell around `page`. The
 * same in the browser and in the server's first screens, so the browser can hydrate what the
 * server rendered. `page`, `navigation` and `after` (beside the shell, rendering nothing) are
 * home's first screen before the router, or the router's (src/app/routed.tsx): the shell stays
 * as the one hands over to the other (src/main.tsx).
 */
export function App({
  queryClient,
  navigation,
  page,
  after,
}: {
  queryClient: QueryClient
  navigation: Navigation
  page: ReactNode
  after?: ReactNode
}) {
  return (
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <I18nProvider i18n={i18n}>
          <Shell navigation={navigation}>{page}</Shell>
          {after}
        </I18nProvider>
      </QueryClientProvider>
    </StrictMode>
  )
}
