import { Hono } from 'hono'
import type * as v from 'valibot'
import type { AboutReplySchema } from '../../src/contract/site'
import { publicCache } from '../http/cache'
import type { AppEnv } from '../http/env'
import { getAboutInfo } from '../services/site'

export const aboutRoutes = new Hono<AppEnv>().get('/info', publicCache(), async (c) => {
  const reply: v.InferOutput<typeof AboutReplySchema> = {
    data: await getAboutInfo(c.var.db, c.var.locale),
  }
  return c.json(reply)
})
