import type { ReactNode } from 'react'
import type { QueryClient } from '@tanstack/react-query'
// The router's own search parser (a small pure function, in the entry already with its
// serializer, src/ui/nav.tsx): the page reads the address as its route will.
import { defaultParseSearch } from '@tanstack/react-router'
import { getToken } from '../api/token'
import { ORDER_FILTER_STATUSES, WALLET_LOG_STATUSES } from '../contract/constants'
import type { Locale } from '../contract/locales'
import { catalogueQueries } from '../features/catalogue/queries'
import { listSearch, searchPageSearch, signInSearch, type SearchInput } from '../routes/-search'
import { FIRST_PAGE_PATHS, firstPageName } from './first-page-paths'

/**
 * The page at `path` (the address's search in `search`, `?q=…`) when it is one shown first
 * without the router (./first-page-paths.ts) for this visitor: the component its route
 * renders, with what the route reads from the address, once its chunk has loaded. A group's
 * reply is asked for at once, as its route's loader does. A search the route would refuse is
 * left to the router, which shows its error.
 */
export function firstPageOf(
  queryClient: QueryClient,
  locale: Locale,
  path: string,
  search: string,
): Promise<ReactNode> | undefined {
  // As the router gives it: anything the address holds, each value checked as unknown.
  const parsed = defaultParseSearch(search) as SearchInput<Record<string, never>>
  try {
    switch (firstPageName(path, !!getToken())) {
      case 'search': {
        const { q, page } = searchPageSearch(parsed)
        return import('../features/catalogue/search-page').then(({ SearchPage }) => (
          <SearchPage q={q.trim()} page={page} />
        ))
      }
      case 'group': {
        const id = Number(FIRST_PAGE_PATHS.group.exec(path)![1])
        void queryClient.prefetchQuery(catalogueQueries.group(locale, id))
        return import('../features/catalogue/group-page').then(({ GroupPage }) => (
          <GroupPage key={id} id={id} />
        ))
      }
      case 'signIn': {
        const { redirect, reset } = signInSearch(parsed)
        return import('../features/auth/sign-in-page').then(({ SignInPage }) => (
          <SignInPage redirect={redirect} reset={reset === 1} />
        ))
      }
      case 'signUp':
        return import('../features/auth/sign-up-page').then(({ SignUpPage }) => <SignUpPage />)
      case 'orders': {
        const list = listSearch(ORDER_FILTER_STATUSES)(parsed)
        return import('../features/orders/orders-page').then(({ OrdersPage }) => (
          <OrdersPage search={list} />
        ))
      }
      case 'wallet': {
        const list = listSearch(WALLET_LOG_STATUSES)(parsed)
        return import('../features/wallet/wallet-page').then(({ WalletPage }) => (
          <WalletPage search={list} />
        ))
      }
      case undefined:
        return undefined
    }
  } catch {
    return undefined
  }
}
