import * as v from 'valibot'
import { LocaleSchema } from './common'
import { OrderPageSchema } from './orders'
import { ProfileReplySchema } from './profile'
import { ContactReplySchema, WebsiteInfoReplySchema } from './site'
import { PaymentLogPageSchema } from './wallet'

/**
 * GET /first-screen/Orders and /first-screen/wallet: a signed-in customer's orders or wallet
 * as the server renders them, with the replies they were rendered from and the customer's
 * profile (docs/api.md, The first screen).
 */
const screen = {
  generated_at: v.number(),
  markup: v.string(),
  locale: LocaleSchema,
  website_info: WebsiteInfoReplySchema,
  profile: ProfileReplySchema,
  contact: ContactReplySchema,
}
export const ListScreenSchemas = {
  orders: v.object({ ...screen, orders: OrderPageSchema }),
  wallet: v.object({ ...screen, logs: PaymentLogPageSchema }),
}

export type ListScreens = {
  [K in keyof typeof ListScreenSchemas]: v.InferOutput<(typeof ListScreenSchemas)[K]>
}
/** A list screen's replies, without what the server adds to them. */
export type ListScreenReplies<K extends keyof ListScreens> = Omit<
  ListScreens[K],
  'generated_at' | 'markup'
>
