import { queryOptions } from '@tanstack/react-query'
import { api } from '../../api/client'
import type { Locale } from '../../contract/common'
import type * as Contract from '../../contract/site'
import type { MessagePayload } from '../../contract/site'

/** A reply schema, loaded with the reply: home's first load uses these queries. */
const reply =
  <K extends keyof typeof Contract>(name: K) =>
  () =>
    import('../../contract/site').then((contract) => contract[name])

export const siteQueries = {
  all: ['site'] as const,
  slider: () =>
    queryOptions({
      queryKey: [...siteQueries.all, 'slider'],
      queryFn: ({ signal }) =>
        api.get('slider/images', reply('SliderReplySchema'), {
          signal,
          anonymous: true,
          localized: false,
        }),
      select: (reply) => reply.data,
      staleTime: 5 * 60_000,
    }),
  about: (locale: Locale) =>
    queryOptions({
      queryKey: [...siteQueries.all, 'about', locale],
      queryFn: ({ signal }) =>
        api.get('about-us/info', reply('AboutReplySchema'), { signal, anonymous: true }),
      select: (reply) => reply.data,
    }),
  contact: (locale: Locale) =>
    queryOptions({
      queryKey: [...siteQueries.all, 'contact', locale],
      queryFn: ({ signal }) =>
        api.get('contact-us/info', reply('ContactReplySchema'), { signal, anonymous: true }),
      select: (reply) => reply.data,
    }),
}

export function sendMessage(payload: MessagePayload) {
  return api.post(
    'messages',
    () => import('../../contract/common').then((contract) => contract.MessageReplySchema),
    { body: payload },
  )
}
