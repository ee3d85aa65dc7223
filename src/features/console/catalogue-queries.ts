import { queryOptions } from '@tanstack/react-query'
import { api } from '../../api/client'
import type * as Contract from '../../contract/console-catalogue'

/* The console's catalogue, slider and promo-code calls (docs/api.md, Console). */

const reply =
  <K extends keyof typeof Contract>(name: K) =>
  () =>
    import('../../contract/console-catalogue').then((contract) => contract[name])

const call = { console: true } as const
const unsaved = { persist: false } as const

export type ItemKind = 'products' | 'packages'

export const catalogueQueries = {
  catalogue: () =>
    queryOptions({
      queryKey: ['console', 'catalogue'],
      queryFn: ({ signal }) =>
        api.get('admin/catalogue', reply('ConsoleCatalogueReplySchema'), { ...call, signal }),
      select: (reply) => reply.data,
      meta: unsaved,
    }),
  slider: () =>
    queryOptions({
      queryKey: ['console', 'slider'],
      queryFn: ({ signal }) =>
        api.get('admin/slider', reply('ConsoleSliderReplySchema'), { ...call, signal }),
      select: (reply) => reply.data,
      meta: unsaved,
    }),
  promoCodes: () =>
    queryOptions({
      queryKey: ['console', 'promo-codes'],
      queryFn: ({ signal }) =>
        api.get('admin/promo-codes', reply('PromoListReplySchema'), { ...call, signal }),
      select: (reply) => reply.data,
      meta: unsaved,
    }),
}

export const catalogueApi = {
  exportFile: () => api.blob('admin/catalogue/export', call),
  importFile: (file: File) =>
    api.post('admin/catalogue/import', reply('CatalogueImportReplySchema'), {
      ...call,
      body: { file },
    }),
  availability: (kind: ItemKind, id: number, available: boolean) =>
    api.post(`admin/catalogue/${kind}/${id}/availability`, reply('ConsoleItemReplySchema'), {
      ...call,
      body: { available: available ? '1' : '0' },
    }),
  prices: (
    kind: ItemKind,
    id: number,
    body: { company_price: string; company_percentage: string; product_percentage: string },
  ) =>
    api.post(`admin/catalogue/${kind}/${id}/prices`, reply('ConsoleItemReplySchema'), {
      ...call,
      body,
    }),
  addSlide: (image: File) =>
    api.post('admin/slider', reply('ConsoleSliderReplySchema'), { ...call, body: { image } }),
  moveSlide: (id: number, direction: 'up' | 'down') =>
    api.post(`admin/slider/${id}/move`, reply('ConsoleSliderReplySchema'), {
      ...call,
      body: { direction },
    }),
  removeSlide: (id: number) =>
    api.delete(`admin/slider/${id}`, reply('ConsoleSliderReplySchema'), call),
  createPromo: (body: {
    code: string
    value: string
    currency: 'USD' | 'LBP'
    uses: string
    expires: string
  }) => api.post('admin/promo-codes', reply('PromoReplySchema'), { ...call, body }),
  disablePromo: (id: number) =>
    api.post(`admin/promo-codes/${id}/disable`, reply('PromoReplySchema'), call),
}
