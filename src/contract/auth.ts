import * as v from 'valibot'
import { LocaleSchema } from './common'

export const CurrencySchema = v.picklist(['USD', 'LBP'])
export type Currency = v.InferOutput<typeof CurrencySchema>

export const UserTypeSchema = v.picklist(['COMPANY', 'CUSTOMER'])

export const VERIFICATION_CODE_LENGTH = 4
export const PASSWORD_MIN_LENGTH = 8
export const PASSWORD_MAX_LENGTH = 128
export const USERNAME_MAX_LENGTH = 50
export const EMAIL_MAX_LENGTH = 254

/** Spec section 5: "a simple pattern". */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/
export const CODE_PATTERN = /^\d{4}$/

/** POST login?check=1 and signup?validate=1: the phone number the code was sent to. */
export const CodeSentReplySchema = v.object({
  message: v.string(),
  data: v.object({ phone_number: v.string() }),
})
export type CodeSentReply = v.InferOutput<typeof CodeSentReplySchema>

/** POST login?auth=1 and signup?auth=1 */
export const TokenReplySchema = v.object({ message: v.optional(v.string()), token: v.string() })

/** POST check/verification-code */
export const CodeCheckReplySchema = v.object({ data: v.object({ is_valid: v.boolean() }) })

/** GET profile (spec section 3, Profile). Money is a decimal in the profile's currency. */
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
  type: v.string(),
})
export type Profile = v.InferOutput<typeof ProfileSchema>
export const ProfileReplySchema = v.object({ data: ProfileSchema })

/** POST change-currency: the profile after the conversion. */
export const CurrencyReplySchema = v.object({ message: v.string(), data: ProfileSchema })
