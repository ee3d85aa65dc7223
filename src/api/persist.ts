import type { Query, QueryClient } from '@tanstack/react-query'
import {
  type PersistedClient,
  persistQueryClientRestore,
  persistQueryClientSave,
  persistQueryClientSubscribe,
} from '@tanstack/query-persist-client-core'
import { createSyncStoragePersister } from '@tanstack/query-sync-storage-persister'
import { del, get, set } from 'idb-keyval'
import { PERSIST_MAX_AGE } from './query-client'

/**
 * The query cache lives in IndexedDB, but the persister we were asked to use is synchronous.
 * It writes through an in-memory mirror that one IndexedDB read fills before the restore.
 * This module is loaded on its own (docs/architecture.md, The PWA): the first render waits
 * for it only when the page carries no first screen (offline, from the service worker).
 */
const CACHE_KEY = 'query-cache'
const mirror = new Map<string, string>()

async function loadPersistedCache(): Promise<void> {
  try {
    const saved = await get<string>(CACHE_KEY)
    if (typeof saved === 'string') mirror.set(CACHE_KEY, saved)
  } catch {
    // IndexedDB unavailable (private mode): start with an empty cache.
  }
}

const storage = {
  getItem: (key: string) => mirror.get(key) ?? null,
  setItem: (key: string, value: string) => {
    mirror.set(key, value)
    void set(key, value).catch(() => {})
  },
  removeItem: (key: string) => {
    mirror.delete(key)
    void del(key).catch(() => {})
  },
}

/**
 * A reply whose asking again failed since (offline, its retries spent) is saved as the success
 * it last was: its error does not survive JSON, and the next start must show the reply, dated
 * when it came, not a problem without a message.
 */
function lastSuccess(client: PersistedClient): PersistedClient {
  const queries = client.clientState.queries.map((query) =>
    query.state.status === 'error'
      ? {
          ...query,
          state: {
            ...query.state,
            status: 'success' as const,
            error: null,
            fetchFailureCount: 0,
            fetchFailureReason: null,
          },
        }
      : query,
  )
  return { ...client, clientState: { ...client.clientState, queries } }
}

const persister = createSyncStoragePersister({
  storage,
  key: CACHE_KEY,
  throttleTime: 500,
  serialize: (client) => JSON.stringify(lastSuccess(client)),
})

/**
 * Fills the cache with the saved replies where they are newer than what it holds (the first
 * screen may already be there), writes what it holds then (the first screen's replies are
 * kept even when nothing changes after them), then every change.
 */
export async function restoreQueryCache(queryClient: QueryClient): Promise<void> {
  const options = {
    queryClient,
    persister,
    maxAge: PERSIST_MAX_AGE,
    buster: __BUILD_ID__,
    dehydrateOptions: {
      // Every reply the device holds, also one whose asking again failed since (offline, its
      // retries spent: the query's status is then an error, its data kept): saved without it,
      // the device's copy would be gone at the next start (saved as a success: lastSuccess).
      shouldDehydrateQuery: (query: Query) =>
        query.state.data !== undefined && query.meta?.persist !== false,
    },
  }
  await loadPersistedCache()
  await persistQueryClientRestore(options)
  persistQueryClientSubscribe(options)
  await persistQueryClientSave(options)
}

/** Removes every saved reply from IndexedDB at once (sign-out, another user). */
export async function clearPersistedCache(): Promise<void> {
  mirror.delete(CACHE_KEY)
  await del(CACHE_KEY).catch(() => {})
}
