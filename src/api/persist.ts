import { createSyncStoragePersister } from '@tanstack/query-sync-storage-persister'
import { del, get, set } from 'idb-keyval'

/**
 * The query cache lives in IndexedDB, but the persister we were asked to use is synchronous.
 * It writes through an in-memory mirror that one IndexedDB read fills before the first render,
 * so restoring is synchronous and the first paint already shows the saved catalogue.
 */
const CACHE_KEY = 'query-cache'
const mirror = new Map<string, string>()

export async function loadPersistedCache(): Promise<void> {
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

export const persister = createSyncStoragePersister({ storage, key: CACHE_KEY, throttleTime: 500 })

/** Removes every saved reply from IndexedDB at once (sign-out, another user). */
export async function clearPersistedCache(): Promise<void> {
  mirror.delete(CACHE_KEY)
  await del(CACHE_KEY).catch(() => {})
}
