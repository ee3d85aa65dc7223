import { Hono } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { ENDPOINTS as E } from '../../src/contract/endpoints'
import { validForm } from '../http/body'
import { clientIp } from '../http/client-ip'
import type { AppEnv } from '../http/env'
import { messageLimit } from '../http/limits'
import { messageReply } from '../http/errors'
import { localeFromUrl } from '../http/locale'
import type { FieldMessages } from '../core/errors'
import { t } from '../i18n'
import { saveMessage } from '../services/messages'

const FIELDS: Record<string, FieldMessages> = {
  name: { label: 'field.name' },
  phone_number: { label: 'field.phone_number', invalid: 'validation.phone_number.invalid' },
  message: { label: 'field.message' },
}

export const messagesRoutes = new Hono<AppEnv>().post(
  E.sendMessage.path,
  messageLimit,
  // The form's fields fit in a few kilobytes; anything far bigger is not a message.
  bodyLimit({
    maxSize: 64 * 1024,
    onError: (c) =>
      c.json({ message: t(localeFromUrl(c.req.url), 'errors.payload_too_large') }, 413),
  }),
  validForm(E.sendMessage.body, FIELDS),
  async (c) => {
    await saveMessage(c.var.db, c.req.valid('form'), {
      locale: c.var.locale,
      ip: clientIp(c, c.var.config.trustProxy),
    })
    return messageReply(c, 200, 'messages.sent')
  },
)
