import { Hono } from 'hono'
import type * as v from 'valibot'
import type { ContactReplySchema } from '../../src/contract/site'
import type { AppEnv } from '../http/env'
import { sharedReply } from '../http/reply-cache'
import { getContactInfo } from '../services/site'

export const contactRoutes = new Hono<AppEnv>().get('/info', sharedReply(), async (c) => {
  const reply: v.InferOutput<typeof ContactReplySchema> = { data: await getContactInfo(c.var.db) }
  return c.json(reply)
})
