import { keepPreviousData, queryOptions } from '@tanstack/react-query'
import { api } from '../../api/client'
import type { Locale } from '../../contract/common'
import type * as Contract from '../../contract/catalogue'
import { PAGE_STEP } from '../../contract/constants'

/** A reply schema, loaded with the reply: home's first load uses these queries. */
const reply =
  <K extends keyof typeof Contract>(name: K) =>
  () =>
    import('../../contract/catalogue').then((contract) => contract[name])

const CATALOGUE_STALE = 5 * 60_000

export const catalogueQueries = {
  all: ['catalogue'] as const,
  /**
   * The home grid's first page, whose size grows by 15 per load up to the server's largest
   * page (300); past it, the next pages of 300 (`page` 2, 3...).
   */
  products: (locale: Locale, perPage = PAGE_STEP, page = 1) =>
    queryOptions({
      queryKey: [...catalogueQueries.all, 'products', locale, perPage, ...(page > 1 ? [page] : [])],
      queryFn: ({ signal }) =>
        api.get('products', reply('ProductPageSchema'), {
          signal,
          anonymous: true,
          query: { page, per_page: perPage },
        }),
      staleTime: CATALOGUE_STALE,
      placeholderData: keepPreviousData,
    }),
  search: (locale: Locale, q: string, page: number) =>
    queryOptions({
      queryKey: [...catalogueQueries.all, 'search', locale, q, page],
      queryFn: ({ signal }) =>
        api.get('products', reply('ProductPageSchema'), {
          signal,
          anonymous: true,
          query: { search: q, page },
        }),
      staleTime: CATALOGUE_STALE,
      // Results are only worth keeping for this visit.
      meta: { persist: false },
    }),
  product: (locale: Locale, id: number) =>
    queryOptions({
      queryKey: [...catalogueQueries.all, 'product', locale, id],
      queryFn: ({ signal }) =>
        api.get(`products/${id}`, reply('ProductDetailReplySchema'), { signal, anonymous: true }),
      select: (reply) => reply.data,
      staleTime: CATALOGUE_STALE,
    }),
  packages: (locale: Locale, productId: number) =>
    queryOptions({
      queryKey: [...catalogueQueries.all, 'packages', locale, productId],
      queryFn: ({ signal }) =>
        api.get(`products/${productId}/packages`, reply('PackagePageSchema'), {
          signal,
          anonymous: true,
          query: { page: 1, per_page: 300 },
        }),
      staleTime: CATALOGUE_STALE,
    }),
  package: (locale: Locale, id: number) =>
    queryOptions({
      queryKey: [...catalogueQueries.all, 'package', locale, id],
      queryFn: ({ signal }) =>
        api.get(`products/packages/${id}`, reply('PackageDetailReplySchema'), {
          signal,
          anonymous: true,
        }),
      select: (reply) => reply.data,
      staleTime: CATALOGUE_STALE,
    }),
  /** The groups that hold products, for home's row of groups. */
  groups: (locale: Locale) =>
    queryOptions({
      queryKey: [...catalogueQueries.all, 'groups', locale],
      queryFn: ({ signal }) =>
        api.get('products/groups', reply('GroupListReplySchema'), { signal, anonymous: true }),
      staleTime: CATALOGUE_STALE,
    }),
  group: (locale: Locale, id: number) =>
    queryOptions({
      queryKey: [...catalogueQueries.all, 'group', locale, id],
      queryFn: ({ signal }) =>
        api.get(`products/by-group/${id}`, reply('GroupReplySchema'), { signal, anonymous: true }),
      select: (reply) => reply.data,
      staleTime: CATALOGUE_STALE,
    }),
}
