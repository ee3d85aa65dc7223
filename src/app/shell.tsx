import { useEffect, useState, type ReactNode } from 'react'
import { useQueryClient } from '@tanstack/react-query'
import { lazyPiece } from '../ui/lazy-piece'
import { ConnectionPopup } from './connection-popup'
import { NavigationProvider, type Navigation } from '../ui/nav'
import { usePushMessages } from './push-messages'
import { ThemeSync } from './theme-sync'
import { SecondaryBar, TopBar } from './top-bar'
import { afterSettled } from '../ui/when-idle'
import { maybeIosSafari } from '../pwa/install-offer'
import * as styles from './shell.css'

// Below the fold, floating or waiting on the service worker: loaded after the first paint (the
// footer and the floating buttons once the browser is idle), off the critical path of the first
// screen; a piece that cannot load (offline) is simply left out.
// Their messages come with home's first ones (vite.config.ts, FIRST_PIECES).
const idle = { idle: true, firstMessages: true }
// The server's first screens come with the footer, kept as it is until its code comes.
const Footer = lazyPiece(() => import('./footer').then((m) => m.Footer), undefined, {
  ...idle,
  kept: 'footer',
})
/** For the server's process (src/entry-server.tsx): its screens are rendered with the footer. */
export const serveFooter = () => Footer.serve()
const WhatsAppButton = lazyPiece(
  () => import('./footer').then((m) => m.WhatsAppButton),
  undefined,
  idle,
)
const UpdatePrompt = lazyPiece(() => import('../pwa/update-prompt').then((m) => m.UpdatePrompt))
// Its code loads only in iOS Safari.
const IosInstallHint = lazyPiece(
  () => import('../pwa/install-prompt').then((m) => m.IosInstallHint),
  undefined,
  idle,
)
const iosSafari = maybeIosSafari()

/**
 * The service worker installs after the page has loaded and settled (its replies in and shown,
 * the browser idle), and two seconds more: its precache downloads must not compete with what
 * the first visit is waiting for, nor its install with the renders that show it. Its code
 * loads then, and nothing renders for it until a new release waits (the update prompt).
 */
function useServiceWorker(delayMs = 2000): [boolean, (waiting: boolean) => void] {
  const queryClient = useQueryClient()
  const [waiting, setWaiting] = useState(false)
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined
    const register = () =>
      import('../pwa/service-worker').then(
        (worker) => worker.registerServiceWorker(() => setWaiting(true)),
        // Offline before the files were cached: the next visit registers it.
        () => {},
      )
    const cancelSettled = afterSettled(queryClient, () => {
      timer = setTimeout(register, delayMs)
    })
    return () => {
      cancelSettled()
      clearTimeout(timer)
    }
  }, [delayMs, queryClient])
  return [waiting, setWaiting]
}

/**
 * The bars, footer and prompts around every page: `children` is the page, and `navigation`
 * what its links do (before the router has loaded, or with it; src/ui/nav.tsx).
 */
export function Shell({ navigation, children }: { navigation: Navigation; children: ReactNode }) {
  const [updateWaiting, setUpdateWaiting] = useServiceWorker()
  usePushMessages()
  return (
    <NavigationProvider value={navigation}>
      <ThemeSync />
      <TopBar />
      <SecondaryBar />
      <main id="main" className={styles.main} tabIndex={-1}>
        {children}
      </main>
      <ConnectionPopup />
      <Footer />
      <WhatsAppButton />
      {updateWaiting && <UpdatePrompt onLater={() => setUpdateWaiting(false)} />}
      {iosSafari && <IosInstallHint />}
    </NavigationProvider>
  )
}
