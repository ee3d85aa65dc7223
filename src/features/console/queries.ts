import { queryOptions, type QueryClient } from '@tanstack/react-query'
import { api } from '../../api/client'
import type * as Contract from '../../contract/console'

/*
 * The console's calls (docs/api.md, Console): its own cookie session, never the customer's
 * token; nothing of it is saved to IndexedDB (`persist: false`), and signing out of the
 * console forgets all of it.
 */

/** A reply schema, loaded with the reply (valibot is no part of a page's first load). */
const reply =
  <K extends keyof typeof Contract>(name: K) =>
  () =>
    import('../../contract/console').then((contract) => contract[name])
const message = () => import('../../contract/common').then((c) => c.MessageReplySchema)

const CONSOLE_KEY = ['console'] as const
const call = { console: true } as const
const unsaved = { persist: false } as const

/** How often the open queue and counts look for new receipts. */
const REFRESH_MS = 5_000

export const consoleQueries = {
  me: () =>
    queryOptions({
      queryKey: [...CONSOLE_KEY, 'me'],
      queryFn: ({ signal }) =>
        api.get('admin/me', reply('OperatorReplySchema'), { ...call, signal }),
      select: (reply) => reply.data,
      retry: false,
      meta: unsaved,
    }),
  today: () =>
    queryOptions({
      queryKey: [...CONSOLE_KEY, 'today'],
      queryFn: ({ signal }) =>
        api.get('admin/today', reply('TodayReplySchema'), { ...call, signal }),
      select: (reply) => reply.data,
      refetchInterval: REFRESH_MS,
      meta: unsaved,
    }),
  topUps: () =>
    queryOptions({
      queryKey: [...CONSOLE_KEY, 'top-ups'],
      queryFn: ({ signal }) =>
        api.get('admin/top-ups', reply('TopUpQueueReplySchema'), { ...call, signal }),
      select: (reply) => reply.data,
      refetchInterval: REFRESH_MS,
      meta: unsaved,
    }),
  /** A receipt photo, fetched with the console's cookie: an object URL to show. */
  receipt: (path: string) =>
    queryOptions({
      queryKey: [...CONSOLE_KEY, 'receipt', path],
      queryFn: async ({ signal }) =>
        URL.createObjectURL(await api.blob(path.replace(/^\/api\//, ''), { ...call, signal })),
      staleTime: Infinity,
      meta: unsaved,
    }),
}

export const consoleApi = {
  signIn: (body: { username: string; password: string; code: string }) =>
    api.post('admin/sign-in', reply('OperatorReplySchema'), { ...call, body }),
  signOut: () => api.post('admin/sign-out', message, call),
  signOutEverywhere: () => api.post('admin/sign-out-everywhere', message, call),
  approve: (id: number) =>
    api.post(`admin/top-ups/${id}/approve`, reply('TopUpDecisionReplySchema'), call),
  reject: (id: number, reason: string) =>
    api.post(`admin/top-ups/${id}/reject`, reply('TopUpDecisionReplySchema'), {
      ...call,
      body: { reason },
    }),
}

/** After a sign-in or sign-out: whatever the console showed is dropped, and read again if shown. */
export function resetConsole(queryClient: QueryClient) {
  void queryClient.resetQueries({ queryKey: CONSOLE_KEY })
}
