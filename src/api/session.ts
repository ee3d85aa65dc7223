import type { QueryClient } from '@tanstack/react-query'
import { setToken } from './token'

/** Every query of the signed-in user's data lives under this key and goes when they leave. */
export const USER_KEY = ['user'] as const

/**
 * Forgets the signed-in user on this device: their token, their cached queries, and the saved
 * copy in IndexedDB (removed at once; the public catalogue is saved again without them).
 */
export async function forgetUser(queryClient: QueryClient): Promise<void> {
  setToken(null)
  await queryClient.cancelQueries({ queryKey: USER_KEY })
  queryClient.removeQueries({ queryKey: USER_KEY })
  // Loaded on its own, off the first load (docs/architecture.md, The PWA).
  await import('./persist').then(({ clearPersistedCache }) => clearPersistedCache())
}

/** Starts a session with no trace of whoever used the device before. */
export async function startSession(
  queryClient: QueryClient,
  token: string,
  remember: boolean,
): Promise<void> {
  await forgetUser(queryClient)
  setToken(token, { remember })
}
