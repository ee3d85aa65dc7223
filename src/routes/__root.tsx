import { useEffect, useState } from 'react'
import type { QueryClient } from '@tanstack/react-query'
import { createRootRouteWithContext, Outlet } from '@tanstack/react-router'
import { Trans } from '@lingui/react/macro'
import { ConnectionPopup } from '../app/connection-popup'
import { NotFound } from '../app/not-found'
import { usePushMessages } from '../app/push-messages'
import { ThemeSync } from '../app/theme-sync'
import { SecondaryBar, TopBar } from '../app/top-bar'
import * as styles from '../app/shell.css'
import { wholeCatalogue } from '../i18n/locale'
import { lazyPiece } from '../ui/lazy-piece'

export interface RouterContext {
  queryClient: QueryClient
  auth: { isSignedIn: () => boolean }
}

// Below the fold or waiting on the service worker: loaded after the first paint, off the
// critical path of the home route; a piece that cannot load (offline) is simply left out.
const Footer = lazyPiece(() => import('../app/footer').then((m) => m.Footer))
const WhatsAppButton = lazyPiece(() => import('../app/footer').then((m) => m.WhatsAppButton))
const UpdatePrompt = lazyPiece(() => import('../pwa/update-prompt').then((m) => m.UpdatePrompt))
const IosInstallHint = lazyPiece(() =>
  import('../pwa/install-prompt').then((m) => m.IosInstallHint),
)

export const Route = createRootRouteWithContext<RouterContext>()({
  // Home's first load has only its own messages: another page waits for the whole catalogue,
  // loaded along with its chunk. Offline without it, the page's own chunk says what failed,
  // and its texts follow once a later try (another page, a lazy piece) gets the catalogue.
  loader: ({ location }) =>
    location.pathname === '/' ? undefined : wholeCatalogue().catch(() => {}),
  component: Shell,
  notFoundComponent: NotFound,
})

/**
 * The service worker installs after the page has loaded and settled: its precache downloads
 * must not compete with what the first visit is waiting for.
 */
function useAfterLoad(delayMs = 2000): boolean {
  const [ready, setReady] = useState(false)
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined
    const start = () => (timer = setTimeout(() => setReady(true), delayMs))
    if (document.readyState === 'complete') start()
    else window.addEventListener('load', start, { once: true })
    return () => {
      window.removeEventListener('load', start)
      clearTimeout(timer)
    }
  }, [delayMs])
  return ready
}

function Shell() {
  const settled = useAfterLoad()
  usePushMessages()
  return (
    <>
      <a
        href="#/"
        className={styles.skipLink}
        onClick={(event) => {
          // A plain #main would be read as a route by the hash router.
          event.preventDefault()
          document.getElementById('main')?.focus()
        }}
      >
        <Trans>Skip to content</Trans>
      </a>
      <ThemeSync />
      <TopBar />
      <SecondaryBar />
      <main id="main" className={styles.main} tabIndex={-1}>
        <Outlet />
      </main>
      <ConnectionPopup />
      <Footer />
      <WhatsAppButton />
      {settled && <UpdatePrompt />}
      <IosInstallHint />
    </>
  )
}
