import { Hono } from 'hono'
import { ENDPOINTS as E, type Reply } from '../../src/contract/endpoints'
import type { AppEnv } from '../http/env'
import { sharedReply } from '../http/reply-cache'
import { IMMUTABLE } from '../http/static'
import { narrowPicture, pictureWidth } from '../services/made-pictures'
import { isPhotoName, readPhoto } from '../services/receipts'
import { listSliderImages } from '../services/site'

export const sliderRoutes = new Hono<AppEnv>().get(E.slider.path, sharedReply(), async (c) => {
  const reply: Reply<'slider'> = { data: await listSliderImages(c.var.db) }
  return c.json(reply)
})

/**
 * The pictures the console added (services/slider.ts), by the names the server made: a name
 * never changes meaning, so a year's caching; anything else is 404. `?w=` gives a narrower copy
 * (src/contract/pictures.ts).
 */
export const sliderMediaRoutes = new Hono<AppEnv>().get('/:file', async (c) => {
  const file = c.req.param('file')
  if (!isPhotoName(file)) return c.text('Not Found', 404)
  let bytes: Buffer
  try {
    bytes = await readPhoto(c.var.config.sliderDir, file)
  } catch {
    return c.text('Not Found', 404)
  }
  const width = pictureWidth(c.req.query('w'))
  if (width) bytes = await narrowPicture(`slider/${file}`, bytes, width).catch(() => bytes)
  c.header('Content-Type', 'image/jpeg')
  c.header('Cache-Control', IMMUTABLE)
  return c.body(new Uint8Array(bytes))
})
