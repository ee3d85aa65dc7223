import { Hono } from 'hono'
import { ENDPOINTS as E, type Reply } from '../../src/contract/endpoints'
import type { AppEnv } from '../http/env'
import { sharedReply } from '../http/reply-cache'
import { getAboutInfo } from '../services/site'

export const aboutRoutes = new Hono<AppEnv>().get(E.about.path, sharedReply(), async (c) => {
  const reply: Reply<'about'> = {
    data: await getAboutInfo(c.var.db, c.var.locale),
  }
  return c.json(reply)
})
