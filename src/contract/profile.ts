import * as v from 'valibot'
import { LocaleSchema } from './common'

// The signed-in customer's profile and its settings. Kept apart from the sign-in schemas so
// that every page can read the profile without the phone-number rules.

export const CurrencySchema = v.picklist(['USD', 'LBP'])
export type Currency = v.InferOutput<typeof CurrencySchema>

export const UserTypeSchema = v.picklist(['COMPANY', 'CUSTOMER'])
export type UserType = v.InferOutput<typeof UserTypeSchema>

/** POST change/locale */
export const LocalePayloadSchema = v.object({ locale: LocaleSchema })
/**
 * POST change-currency. The storefront's `locale` rides along and is not read: the reply's
 * language comes from `local`.
 */
export const CurrencyPayloadSchema = v.object({
  currency: CurrencySchema,
  locale: v.optional(v.unknown()),
})

// ---- replies --------------------------------------------------------------------------------

/** GET profile (docs/api.md, Profile). Money is a decimal in the profile's currency. */
export const ProfileSchema = v.object({
  username: v.string(),
  email: v.nullish(v.string()),
  balance: v.number(),
  currency: CurrencySchema,
  locale: LocaleSchema,
  phone_number: v.string(),
  new_notifications_count: v.number(),
  token: v.nullish(v.string()),
  ip_whitelist: v.nullish(v.string()),
  type: UserTypeSchema,
})
export type Profile = v.InferOutput<typeof ProfileSchema>
export const ProfileReplySchema = v.object({ data: ProfileSchema })

/** POST change-currency: the profile after the conversion. */
export const CurrencyReplySchema = v.object({ message: v.string(), data: ProfileSchema })
