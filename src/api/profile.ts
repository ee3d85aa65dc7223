import { queryOptions } from '@tanstack/react-query'
import { api } from './client'
import { USER_KEY } from './session'

/** The signed-in customer's profile: balance, currency, type. Several features read it. */
export const profileQuery = () =>
  queryOptions({
    queryKey: [...USER_KEY, 'profile'],
    queryFn: ({ signal }) =>
      // The schema (and valibot) with the reply: the customer's pages read it first.
      api.get('profile', () => import('../contract/profile').then((c) => c.ProfileReplySchema), {
        signal,
        query: { test: window.location.hash.slice(1) || '/' },
      }),
    select: (reply) => reply.data,
    // The balance moves on the server (an approved top-up, a refund): every page load and
    // return to the app asks again, showing the saved copy meanwhile. A reply this page load
    // asked for is fresh for a few seconds: the top bar's balance and bell, mounted a moment
    // apart, share one request.
    staleTime: (query) => (query.state.dataUpdatedAt > performance.timeOrigin ? 5_000 : 0),
  })
