import { useSyncExternalStore } from 'react'
import { INSTALL_OFFER } from '../contract/constants'

/** Chromium's offer to install the store (its `beforeinstallprompt` event). */
export interface InstallOffer extends Event {
  prompt(): Promise<void>
  userChoice: Promise<{ outcome: 'accepted' | 'dismissed' }>
}

/**
 * The browser's offer, kept from the moment the page starts (by the page's first script until
 * this runs): the install button's code loads only once there is one (most visits never get
 * one), not with every page.
 */
let offer: InstallOffer | null =
  typeof window === 'undefined'
    ? null
    : ((window as unknown as Record<string, InstallOffer | undefined>)[INSTALL_OFFER] ?? null)
const listeners = new Set<() => void>()

function keep(value: InstallOffer | null) {
  offer = value
  for (const listener of listeners) listener()
}

if (typeof window !== 'undefined') {
  window.addEventListener('beforeinstallprompt', (event) => {
    event.preventDefault()
    keep(event as InstallOffer)
  })
  window.addEventListener('appinstalled', () => keep(null))
}

/** The offer the browser made, until it is used or the store is installed. */
export function useInstallOffer(): [InstallOffer | null, () => void] {
  const current = useSyncExternalStore(
    (listener) => {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    () => offer,
    () => null,
  )
  return [current, () => keep(null)]
}

/**
 * Whether this is iOS Safari (no install prompt there: the store says how to add it to the home
 * screen), from the browser's name alone: cheap enough to ask as the page starts, so the hint's
 * code loads only there.
 */
export function maybeIosSafari(): boolean {
  if (typeof navigator === 'undefined') return false
  const ua = navigator.userAgent
  const ios =
    /iPad|iPhone|iPod/.test(ua) || (ua.includes('Macintosh') && navigator.maxTouchPoints > 1)
  return ios && /Safari/.test(ua) && !/CriOS|FxiOS|EdgiOS/.test(ua)
}
