import { startTransition, StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { i18n } from '@lingui/core'
import { I18nProvider } from '@lingui/react'
import { RouterProvider } from '@tanstack/react-router'
import { QueryClientProvider, type Query } from '@tanstack/react-query'
import {
  persistQueryClientRestore,
  persistQueryClientSubscribe,
} from '@tanstack/query-persist-client-core'
import { DirectionProvider } from '@radix-ui/react-direction'
import { configureApi } from './api/client'
import { loadPersistedCache, persister } from './api/persist'
import { forgetUser } from './api/session'
import { createQueryClient, PERSIST_MAX_AGE } from './api/query-client'
import { seedFirstScreen } from './app/first-screen'
import { activateLocale, LOCALES, storedLocale } from './i18n/locale'
import { useLocale } from './i18n/use-locale'
import { createAppRouter } from './router'
import './theme/theme.css'

const queryClient = createQueryClient()
const router = createAppRouter(queryClient)

const persistOptions = {
  queryClient,
  persister,
  maxAge: PERSIST_MAX_AGE,
  buster: __BUILD_ID__,
  dehydrateOptions: {
    shouldDehydrateQuery: (query: Query) =>
      query.state.status === 'success' && query.meta?.persist !== false,
  },
}

configureApi({
  onForbidden: () => void router.navigate({ to: '/403' }),
  // A 401 means the session ended elsewhere: forget the user, then re-run the guards.
  onUnauthorized: () => void forgetUser(queryClient).then(() => router.invalidate()),
})

function App() {
  const locale = useLocale()
  return (
    <QueryClientProvider client={queryClient}>
      <I18nProvider i18n={i18n}>
        <DirectionProvider dir={LOCALES[locale].rtl ? 'rtl' : 'ltr'}>
          <RouterProvider router={router} />
        </DirectionProvider>
      </I18nProvider>
    </QueryClientProvider>
  )
}

async function boot() {
  const locale = storedLocale()
  await Promise.all([activateLocale(locale), loadPersistedCache()])
  // The in-memory mirror is filled, so the restore is immediate and the first render already
  // has the saved catalogue, or the newer replies the page carries; from then on every change
  // is written back.
  await persistQueryClientRestore(persistOptions)
  seedFirstScreen(queryClient, locale)
  persistQueryClientSubscribe(persistOptions)
  const root = createRoot(document.getElementById('root')!)
  // A transition renders in slices that yield to the browser: no long task on a slow phone,
  // and the static skeleton in index.html stays until the page is ready.
  startTransition(() =>
    root.render(
      <StrictMode>
        <App />
      </StrictMode>,
    ),
  )
}

void boot()
