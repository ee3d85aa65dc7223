import { Hono } from 'hono'
import type * as v from 'valibot'
import type { AboutReplySchema } from '../../src/contract/site'
import type { AppEnv } from '../http/env'
import { sharedReply } from '../http/reply-cache'
import { getAboutInfo } from '../services/site'

export const aboutRoutes = new Hono<AppEnv>().get('/info', sharedReply(), async (c) => {
  const reply: v.InferOutput<typeof AboutReplySchema> = {
    data: await getAboutInfo(c.var.db, c.var.locale),
  }
  return c.json(reply)
})
