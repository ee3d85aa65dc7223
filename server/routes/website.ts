import { Hono } from 'hono'
import { ENDPOINTS as E, type Reply } from '../../src/contract/endpoints'
import type { AppEnv } from '../http/env'
import { sharedReply } from '../http/reply-cache'
import { getWebsiteInfo } from '../services/site'

export const websiteRoutes = new Hono<AppEnv>().get(
  E.websiteInfo.path,
  sharedReply(),
  async (c) => {
    // The LBP rate travels with the site look so the storefront shows prices as they are charged,
    // and the store's time zone so its date filters count the days as the server does.
    const info = {
      ...(await getWebsiteInfo(c.var.db)),
      lbp_rate: c.var.config.lbpRate,
      time_zone: c.var.config.storeTimeZone,
    }
    // Clients read website_info as a JSON string, not an object (docs/api.md, Values on the wire).
    const reply: Reply<'websiteInfo'> = { website_info: JSON.stringify(info) }
    return c.json(reply)
  },
)
