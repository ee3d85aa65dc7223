import { queryOptions } from '@tanstack/react-query'
import { api } from '../../api/client'
import type { FormValue } from '../../api/form-data'
import type { UsdtState } from '../../contract/console-usdt'

/*
 * The calls of the console's Settings and USDT screens and of its bar's badge (docs/api.md,
 * Console: Settings, USDT, Alerts): the console's cookie, nothing saved to IndexedDB.
 */

const settings = () => import('../../contract/console-settings')
const usdt = () => import('../../contract/console-usdt')
const call = { console: true } as const
const unsaved = { persist: false } as const

/** How often the badge and the USDT lists look for news. */
export const ALERTS_MS = 5_000

export const settingsQueries = {
  settings: () =>
    queryOptions({
      queryKey: ['console', 'settings'],
      queryFn: ({ signal }) =>
        api.get('admin/settings', () => settings().then((c) => c.SettingsReplySchema), {
          ...call,
          signal,
        }),
      select: (reply) => reply.data,
      retry: false,
      meta: unsaved,
    }),
  usdt: (status: UsdtState) =>
    queryOptions({
      queryKey: ['console', 'usdt', status],
      queryFn: ({ signal }) =>
        api.get('admin/usdt', () => usdt().then((c) => c.UsdtListReplySchema), {
          ...call,
          query: { status },
          signal,
        }),
      select: (reply) => reply.data,
      refetchInterval: ALERTS_MS,
      meta: unsaved,
    }),
  unmatched: () =>
    queryOptions({
      queryKey: ['console', 'usdt', 'unmatched'],
      queryFn: ({ signal }) =>
        api.get('admin/usdt/unmatched', () => usdt().then((c) => c.UnmatchedReplySchema), {
          ...call,
          signal,
        }),
      select: (reply) => reply.data,
      refetchInterval: ALERTS_MS,
      meta: unsaved,
    }),
  alerts: () =>
    queryOptions({
      queryKey: ['console', 'alerts'],
      queryFn: ({ signal }) =>
        api.get('admin/alerts', () => usdt().then((c) => c.AlertsReplySchema), { ...call, signal }),
      select: (reply) => reply.data,
      refetchInterval: ALERTS_MS,
      meta: unsaved,
    }),
}

export type SettingsForm = 'payments' | 'contact' | 'texts'

export const settingsApi = {
  save: (form: SettingsForm, body: Record<string, FormValue>) =>
    api.post(`admin/settings/${form}`, () => settings().then((c) => c.SettingsSavedReplySchema), {
      ...call,
      body,
    }),
  confirm: (id: number, txHash: string) =>
    api.post(`admin/usdt/${id}/confirm`, () => usdt().then((c) => c.UsdtConfirmReplySchema), {
      ...call,
      body: { tx_hash: txHash },
    }),
}
