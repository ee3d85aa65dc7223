import { queryOptions } from '@tanstack/react-query'
import { ProfileReplySchema } from '../contract/profile'
import { api } from './client'
import { USER_KEY } from './session'

/** The signed-in customer's profile: balance, currency, type. Several features read it. */
export const profileQuery = () =>
  queryOptions({
    queryKey: [...USER_KEY, 'profile'],
    queryFn: ({ signal }) =>
      api.get('profile', ProfileReplySchema, {
        signal,
        query: { test: window.location.hash.slice(1) || '/' },
      }),
    select: (reply) => reply.data,
    // The balance moves on the server (an approved top-up, a refund): every page load and
    // return to the app asks again, showing the saved copy meanwhile.
    staleTime: 0,
  })
