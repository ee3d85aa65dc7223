import { startTransition, StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { i18n } from '@lingui/core'
import { I18nProvider } from '@lingui/react'
import { RouterProvider } from '@tanstack/react-router'
import { QueryClientProvider } from '@tanstack/react-query'
import { DirectionProvider } from '@radix-ui/react-direction'
import { configureApi } from './api/client'
import { forgetUser } from './api/session'
import { createQueryClient } from './api/query-client'
import { seedFirstScreen } from './app/first-screen'
import { activateLocale, LOCALES, storedLocale } from './i18n/locale'
import { useLocale } from './i18n/use-locale'
import { createAppRouter } from './router'
import './theme/theme.css'

const queryClient = createQueryClient()
const router = createAppRouter(queryClient)

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
  // The saved cache is restored in the background when the page carries home's first screen;
  // without it (offline, the page from the service worker) the first render waits for the
  // saved catalogue, so it never shows empty. Restoring keeps whatever is newer.
  const restored = import('./api/persist')
    .then(({ restoreQueryCache }) => restoreQueryCache(queryClient))
    .catch(() => {})
  const seeded = seedFirstScreen(queryClient, locale)
  await Promise.all([activateLocale(locale), seeded || restored])
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
