import { Hono } from 'hono'
import type { Channel } from '../adapters/delivery'
import { noStoreByDefault } from '../http/cache'
import type { PushConfig } from '../../src/contract/notifications'
import type { AppEnv } from '../http/env'
import { messageReply } from '../http/errors'
import { aboutRoutes } from './about'
import { adminRoutes } from './admin'
import { authRoutes } from './auth'
import { catalogueRoutes } from './catalogue'
import { contactRoutes } from './contact'
import { devPushRoutes, devRoutes } from './dev'
import { notificationRoutes, pushConfigRoutes } from './notifications'
import { messagesRoutes } from './messages'
import { orderRoutes } from './orders'
import { profileRoutes } from './profile'
import { resellerRoutes } from './reseller'
import { sliderRoutes } from './slider'
import { walletRoutes } from './wallet'
import { websiteRoutes } from './website'

/** Everything under /api/ (docs/api.md). One sub-app per resource of the contract. */
export function apiRoutes({
  devOutbox,
  devPush,
  pushConfig,
}: {
  devOutbox: Channel[]
  devPush: boolean
  /** The Firebase web settings the storefront offers push with; null: it does not. */
  pushConfig: PushConfig | null
}) {
  const api = new Hono<AppEnv>()
  api.use(noStoreByDefault)
  // Each sub-app routes its entries of the contract's table (src/contract/endpoints.ts).
  api.route('/', websiteRoutes)
  api.route('/', sliderRoutes)
  api.route('/', aboutRoutes)
  api.route('/', contactRoutes)
  api.route('/', messagesRoutes)
  api.route('/', catalogueRoutes)
  api.route('/', authRoutes)
  api.route('/', profileRoutes)
  api.route('/', orderRoutes)
  api.route('/', walletRoutes)
  api.route('/', notificationRoutes)
  api.route('/', pushConfigRoutes(pushConfig))
  api.route('/', resellerRoutes)
  api.route('/', adminRoutes)
  if (devOutbox.length > 0) api.route('/', devRoutes(devOutbox))
  if (devPush) api.route('/', devPushRoutes)
  api.all('*', (c) => messageReply(c, 404, 'errors.not_found'))
  return api
}
