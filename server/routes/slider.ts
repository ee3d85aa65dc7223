import { Hono } from 'hono'
import type { SliderReply } from '../../src/contract/site'
import type { AppEnv } from '../http/env'
import { sharedReply } from '../http/reply-cache'
import { listSliderImages } from '../services/site'

export const sliderRoutes = new Hono<AppEnv>().get('/images', sharedReply(), async (c) => {
  const reply: SliderReply = { data: await listSliderImages(c.var.db) }
  return c.json(reply)
})
