import { Hono } from 'hono'
import type * as v from 'valibot'
import type { WebsiteInfoReplySchema } from '../../src/contract/site'
import type { AppEnv } from '../http/env'
import { sharedReply } from '../http/reply-cache'
import { getWebsiteInfo } from '../services/site'

export const websiteRoutes = new Hono<AppEnv>().get('/info', sharedReply(), async (c) => {
  // The LBP rate travels with the site look so the storefront shows prices as they are charged,
  // and the store's time zone so its date filters count the days as the server does.
  const info = {
    ...(await getWebsiteInfo(c.var.db)),
    lbp_rate: c.var.config.lbpRate,
    time_zone: c.var.config.storeTimeZone,
  }
  // Clients read website_info as a JSON string, not an object (docs/api.md, Values on the wire).
  const reply: v.InferOutput<typeof WebsiteInfoReplySchema> = { website_info: JSON.stringify(info) }
  return c.json(reply)
})
