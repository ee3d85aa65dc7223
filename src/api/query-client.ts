import { QueryClient } from '@tanstack/react-query'
import { ApiError } from './errors'

export const PERSIST_MAX_AGE = 1000 * 60 * 60 * 24 * 7

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        // Must outlive the persisted copy, or restored data would be collected at once.
        gcTime: PERSIST_MAX_AGE,
        staleTime: 60_000,
        networkMode: 'offlineFirst',
        retry: (count, error) =>
          count < 2 && !(error instanceof ApiError && error.status >= 400 && error.status < 500),
      },
      mutations: { networkMode: 'always', retry: false },
    },
  })
}
