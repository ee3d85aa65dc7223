import { keepPreviousData, queryOptions } from '@tanstack/react-query'
import { api } from '../../api/client'
import type * as Contract from '../../contract/console-customers'
import type { UserType } from '../../contract/profile'

/*
 * The Customers and Audit screens' calls (docs/api.md, Console), with the console's cookie;
 * under the console's key, so signing out of the console forgets them, and never saved.
 */

const reply =
  <K extends keyof typeof Contract>(name: K) =>
  () =>
    import('../../contract/console-customers').then((contract) => contract[name])
const ledgerReply = () => import('../../contract/wallet').then((c) => c.PaymentLogPageSchema)

const KEY = ['console', 'customers'] as const
const call = { console: true } as const
const unsaved = { persist: false } as const

export interface AuditSearch {
  operator: string
  action: string
  subject: string
  start: string
  end: string
  page: number
}

export const customerQueries = {
  all: KEY,
  auditKey: ['console', 'audit'] as const,
  search: (q: string, page: number) =>
    queryOptions({
      queryKey: [...KEY, 'search', q, page],
      queryFn: ({ signal }) =>
        api.get('admin/customers', reply('CustomerSearchReplySchema'), {
          ...call,
          signal,
          query: { q: q || undefined, page },
        }),
      placeholderData: keepPreviousData,
      meta: unsaved,
    }),
  detail: (id: number) =>
    queryOptions({
      queryKey: [...KEY, 'detail', id],
      queryFn: ({ signal }) =>
        api.get(`admin/customers/${id}`, reply('CustomerDetailReplySchema'), { ...call, signal }),
      select: (reply) => reply.data,
      meta: unsaved,
    }),
  ledger: (id: number, page: number) =>
    queryOptions({
      queryKey: [...KEY, 'ledger', id, page],
      queryFn: ({ signal }) =>
        api.get(`admin/customers/${id}/ledger`, ledgerReply, { ...call, signal, query: { page } }),
      placeholderData: keepPreviousData,
      meta: unsaved,
    }),
  audit: (search: AuditSearch) =>
    queryOptions({
      queryKey: [...customerQueries.auditKey, search],
      queryFn: ({ signal }) =>
        api.get('admin/audit', reply('AuditPageReplySchema'), {
          ...call,
          signal,
          query: {
            operator: search.operator || undefined,
            action: search.action || undefined,
            subject: search.subject || undefined,
            start_date: search.start || undefined,
            end_date: search.end || undefined,
            page: search.page,
          },
        }),
      placeholderData: keepPreviousData,
      meta: unsaved,
    }),
}

const done = reply('CustomerActionReplySchema')

export const customerApi = {
  correct: (id: number, body: { direction: 'credit' | 'debit'; amount: string; reason: string }) =>
    api.post(`admin/customers/${id}/balance`, done, { ...call, body }),
  disable: (id: number, reason: string) =>
    api.post(`admin/customers/${id}/disable`, done, { ...call, body: { reason } }),
  enable: (id: number) => api.post(`admin/customers/${id}/enable`, done, call),
  revokeSessions: (id: number) => api.post(`admin/customers/${id}/revoke-sessions`, done, call),
  setType: (id: number, type: UserType) =>
    api.post(`admin/customers/${id}/type`, done, { ...call, body: { type } }),
}
