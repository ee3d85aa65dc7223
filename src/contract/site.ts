import * as v from 'valibot'
import {
  GroupListReplySchema,
  PackageDetailReplySchema,
  PackagePageSchema,
  ProductDetailReplySchema,
  ProductPageSchema,
} from './catalogue'
import { ImageSchema, LocaleSchema } from './common'
import { MESSAGE_LIMITS } from './constants'

/** The object carried, JSON-encoded, in `website_info` (see docs/api.md, GET /api/website/info). */
export const WebsiteInfoSchema = v.object({
  primary_color: v.string(),
  secondary_color: v.string(),
  logo_url: v.nullish(v.string()),
  logo_width: v.nullish(v.union([v.number(), v.string()])),
  logo_mobile_width: v.nullish(v.union([v.number(), v.string()])),
  icon_url: v.nullish(v.string()),
  website_name: v.string(),
  body_bg_image: v.nullish(v.string()),
  footer_bg_image: v.nullish(v.string()),
  /** LBP per USD, for showing prices to customers whose currency is LBP. */
  lbp_rate: v.nullish(v.number()),
  /** The store's time zone (IANA), in which the date filters' days are counted. */
  time_zone: v.nullish(v.string()),
})
export type WebsiteInfo = v.InferOutput<typeof WebsiteInfoSchema>

/** GET website/info: `website_info` is a JSON string (see docs/api.md, Values on the wire). */
export const WebsiteInfoReplySchema = v.object({ website_info: v.string() })
export type WebsiteInfoReply = v.InferOutput<typeof WebsiteInfoReplySchema>

/** GET slider/images */
export const SliderReplySchema = v.object({ data: v.array(ImageSchema) })
export type SliderReply = v.InferOutput<typeof SliderReplySchema>

/** GET about-us/info?local= */
export const AboutInfoSchema = v.object({
  about_us_text: v.string(),
  about_us_images: v.array(ImageSchema),
})
export const AboutReplySchema = v.object({ data: AboutInfoSchema })
export type AboutInfo = v.InferOutput<typeof AboutInfoSchema>

/** GET contact-us/info?local= */
export const ContactInfoSchema = v.object({
  email: v.nullish(v.string()),
  first_phone_number: v.nullish(v.string()),
  second_phone_number: v.nullish(v.string()),
  facebook: v.nullish(v.string()),
  instagram: v.nullish(v.string()),
  whatsapp: v.nullish(v.string()),
  tiktok: v.nullish(v.string()),
})
export const ContactReplySchema = v.object({ data: ContactInfoSchema })
export type ContactInfo = v.InferOutput<typeof ContactInfoSchema>

/**
 * POST messages. Only the shape and bounds live here; the messages a person reads are chosen
 * by the side that shows them, in the person's language.
 */
export const MessagePayloadSchema = v.object({
  name: v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(MESSAGE_LIMITS.name)),
  phone_number: v.pipe(
    v.string(),
    v.trim(),
    v.minLength(1),
    v.maxLength(MESSAGE_LIMITS.phone_number),
    v.regex(/^\+?[0-9 ()-]{3,}$/),
  ),
  message: v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(MESSAGE_LIMITS.message)),
})
export type MessagePayload = v.InferOutput<typeof MessagePayloadSchema>

export { FIRST_SCREEN_ID, FIRST_SCREEN_PRESSES } from './constants'

/**
 * The replies a first visit needs before it can paint home and its footer, carried in the page the server
 * serves (docs/api.md, The first screen). `generated_at` is when they were read, in ms.
 */
export const FirstScreenSchema = v.object({
  generated_at: v.number(),
  locale: LocaleSchema,
  website_info: WebsiteInfoReplySchema,
  slider: SliderReplySchema,
  products: ProductPageSchema,
  groups: GroupListReplySchema,
  contact: ContactReplySchema,
})
export type FirstScreen = v.InferOutput<typeof FirstScreenSchema>

/**
 * A product or package page's first screen, which the page's first script asks the server for
 * (docs/api.md, The first screen): its markup and the replies it was made from, in `locale`.
 * A product's page has `product` and `packages`, a package's page `package`; both the footer's
 * `contact`.
 */
export const RouteScreenSchema = v.object({
  generated_at: v.number(),
  markup: v.string(),
  /** The styles the markup needs beyond the page's (its order form's), as CSS text. */
  style: v.optional(v.string()),
  locale: LocaleSchema,
  website_info: WebsiteInfoReplySchema,
  contact: ContactReplySchema,
  product: v.optional(ProductDetailReplySchema),
  packages: v.optional(PackagePageSchema),
  package: v.optional(PackageDetailReplySchema),
})
export type RouteScreen = v.InferOutput<typeof RouteScreenSchema>
export type RouteScreenReplies = Omit<RouteScreen, 'generated_at' | 'markup' | 'style'>
