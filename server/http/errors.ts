import type { Context } from 'hono'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import { t, type MessageId } from '../i18n'
import type { AppEnv } from './env'

/** A reply of one message in the request's language (`{"message": ...}`). */
export function messageReply<E extends AppEnv>(
  c: Context<E>,
  status: ContentfulStatusCode,
  id: MessageId,
  values?: Record<string, unknown>,
) {
  return c.json({ message: t(c.var.locale, id, values) }, status)
}
