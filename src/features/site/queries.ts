import { queryOptions } from '@tanstack/react-query'
import { api } from '../../api/client'
import type { Locale } from '../../contract/common'
import {
  AboutReplySchema,
  ContactReplySchema,
  SliderReplySchema,
  type MessagePayload,
} from '../../contract/site'
import { MessageReplySchema } from '../../contract/common'

export const siteQueries = {
  all: ['site'] as const,
  slider: () =>
    queryOptions({
      queryKey: [...siteQueries.all, 'slider'],
      queryFn: ({ signal }) =>
        api.get('slider/images', SliderReplySchema, { signal, anonymous: true, localized: false }),
      select: (reply) => reply.data,
      staleTime: 5 * 60_000,
    }),
  about: (locale: Locale) =>
    queryOptions({
      queryKey: [...siteQueries.all, 'about', locale],
      queryFn: ({ signal }) =>
        api.get('about-us/info', AboutReplySchema, { signal, anonymous: true }),
      select: (reply) => reply.data,
    }),
  contact: (locale: Locale) =>
    queryOptions({
      queryKey: [...siteQueries.all, 'contact', locale],
      queryFn: ({ signal }) =>
        api.get('contact-us/info', ContactReplySchema, { signal, anonymous: true }),
      select: (reply) => reply.data,
    }),
}

export function sendMessage(payload: MessagePayload) {
  return api.post('messages', MessageReplySchema, { body: payload })
}
