import { Hono } from 'hono'
import type { SliderReply } from '../../src/contract/site'
import { publicCache } from '../http/cache'
import type { AppEnv } from '../http/env'
import { listSliderImages } from '../services/site'

export const sliderRoutes = new Hono<AppEnv>().get('/images', publicCache(), async (c) => {
  const reply: SliderReply = { data: await listSliderImages(c.var.db) }
  return c.json(reply)
})
