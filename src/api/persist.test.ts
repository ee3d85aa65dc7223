import { afterAll, expect, it, vi } from 'vitest'
import { createQueryClient } from './query-client'

/** IndexedDB, as idb-keyval sees it: one map that outlives a "start" (a module's fresh load). */
const idb = new Map<string, unknown>()
vi.mock('idb-keyval', () => ({
  get: async (key: string) => idb.get(key),
  set: async (key: string, value: unknown) => void idb.set(key, value),
  del: async (key: string) => void idb.delete(key),
}))
vi.stubGlobal('__BUILD_ID__', 'test-build')
afterAll(() => vi.unstubAllGlobals())

interface SavedQuery {
  queryHash: string
  state: { status: string; errorUpdateCount: number }
}
const savedOrders = () => {
  const saved = idb.get('query-cache')
  if (typeof saved !== 'string') return undefined
  const queries = (JSON.parse(saved) as { clientState: { queries: SavedQuery[] } }).clientState
    .queries
  return queries.find((q) => q.queryHash === '["orders"]')
}

/** A start of the app: the persistence module loaded afresh, a new cache restored from disk. */
async function start() {
  vi.resetModules()
  const { restoreQueryCache } = await import('./persist')
  const queryClient = createQueryClient()
  await restoreQueryCache(queryClient)
  return queryClient
}

it('a saved reply whose asking again failed comes back at the next start as the reply it was', async () => {
  const online = await start()
  await online.fetchQuery({ queryKey: ['orders'], queryFn: async () => ['order 7'] })
  const cameAt = online.getQueryState(['orders'])!.dataUpdatedAt
  // Offline: asked again, its retries spent; the query keeps its data with an error.
  await online
    .fetchQuery({
      queryKey: ['orders'],
      queryFn: async () => Promise.reject(new TypeError('Failed to fetch')),
      retry: false,
      staleTime: 0,
    })
    .catch(() => {})
  expect(online.getQueryState(['orders'])!.status).toBe('error')
  await vi.waitFor(() => expect(savedOrders()?.state.errorUpdateCount).toBe(1), {
    timeout: 3000,
  })

  const next = await start()
  const state = next.getQueryState(['orders'])!
  expect(state.status).toBe('success')
  expect(state.error).toBeNull()
  expect(state.data).toEqual(['order 7'])
  // Dated when it came, not when it was saved.
  expect(state.dataUpdatedAt).toBe(cameAt)
})

it('a query that never had a reply is not saved', async () => {
  idb.clear()
  const client = await start()
  await client
    .fetchQuery({
      queryKey: ['orders'],
      queryFn: async () => Promise.reject(new TypeError('Failed to fetch')),
      retry: false,
    })
    .catch(() => {})
  await new Promise((r) => setTimeout(r, 700))
  expect(idb.get('query-cache')).toBeDefined()
  expect(savedOrders()).toBeUndefined()
})
