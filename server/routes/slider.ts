import { Hono } from 'hono'
import { ENDPOINTS as E, type Reply } from '../../src/contract/endpoints'
import type { AppEnv } from '../http/env'
import { sharedReply } from '../http/reply-cache'
import { listSliderImages } from '../services/site'

export const sliderRoutes = new Hono<AppEnv>().get(E.slider.path, sharedReply(), async (c) => {
  const reply: Reply<'slider'> = { data: await listSliderImages(c.var.db) }
  return c.json(reply)
})
