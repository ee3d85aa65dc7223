import { useSyncExternalStore } from 'react'
import { keepPageCookie } from './page-cookies'
import { SIGNED_IN_COOKIE, TOKEN_KEY } from './storage-keys'

/**
 * The one place that reads and writes the session token. It is kept in localStorage `token`;
 * without "remember me" it lives in sessionStorage and ends with the browser session.
 */
const listeners = new Set<() => void>()

function read(storage: Storage): string | null {
  try {
    return storage.getItem(TOKEN_KEY)
  } catch {
    return null
  }
}

export function getToken(): string | null {
  return read(localStorage) ?? read(sessionStorage)
}

export function setToken(token: string | null, { remember = true } = {}): void {
  try {
    localStorage.removeItem(TOKEN_KEY)
    sessionStorage.removeItem(TOKEN_KEY)
    if (token) (remember ? localStorage : sessionStorage).setItem(TOKEN_KEY, token)
  } catch {
    // Storage refused: the session lasts only as long as this page.
  }
  keepSignedInCookie()
  listeners.forEach((listener) => listener())
}

/**
 * Whether a session is stored, in a cookie too (`SIGNED_IN_COOKIE`), so the server sends home's
 * first screen with the bars of a signed-in customer or of a visitor, as the page will show
 * (docs/api.md, The first screen): for as long as the session is kept (a session without
 * "remember me" ends with the browser, and so does the cookie).
 */
export function keepSignedInCookie(): void {
  try {
    const remembered = read(localStorage) !== null
    const signedIn = remembered || read(sessionStorage) !== null
    keepPageCookie(SIGNED_IN_COOKIE, signedIn ? '1' : null, { untilBrowserCloses: !remembered })
  } catch {
    // Cookies refused: a signed-in customer's home comes as the skeleton, then the storefront.
  }
}

function subscribe(listener: () => void) {
  listeners.add(listener)
  const onStorage = (event: StorageEvent) => {
    if (event.key === TOKEN_KEY || event.key === null) listener()
  }
  window.addEventListener('storage', onStorage)
  return () => {
    listeners.delete(listener)
    window.removeEventListener('storage', onStorage)
  }
}

/** Whether the server renders its first screen signed in (a customer's own list). */
let serverSignedIn = false

/** For the server's first screens (src/entry-server.tsx): render them signed in, or not. */
export function renderSignedIn(signedIn: boolean): void {
  serverSignedIn = signedIn
}

/**
 * While the browser hydrates the server's markup, the token the page's first script read: the
 * markup was made signed in only for a page with a session (docs/api.md, The first screen).
 */
const hydrationToken = () =>
  typeof window === 'undefined' ? (serverSignedIn ? 'signed-in' : null) : getToken()

export function useToken(): string | null {
  return useSyncExternalStore(subscribe, getToken, hydrationToken)
}
