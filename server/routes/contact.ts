import { Hono } from 'hono'
import { ENDPOINTS as E, type Reply } from '../../src/contract/endpoints'
import type { AppEnv } from '../http/env'
import { sharedReply } from '../http/reply-cache'
import { getContactInfo } from '../services/site'

export const contactRoutes = new Hono<AppEnv>().get(E.contact.path, sharedReply(), async (c) => {
  const reply: Reply<'contact'> = { data: await getContactInfo(c.var.db) }
  return c.json(reply)
})
