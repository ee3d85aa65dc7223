import * as v from 'valibot'

import {
  CODE_PATTERN,
  EMAIL_MAX_LENGTH,
  EMAIL_PATTERN,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  USERNAME_MAX_LENGTH,
} from './constants'

/** Letters and digits of any script, and . _ - (no spaces: people type usernames to sign in). */
export const USERNAME_PATTERN = /^[\p{L}\p{N}._-]+$/u

// ---- requests (bounds and shapes; the words of their messages are each side's own) ----------
// The sign-up's, which hold the phone rules, are in ./sign-up.ts.

/** Text of 1 to `max` characters, trimmed. */
export const text = (max: number) => v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(max))
const optionalText = v.optional(v.pipe(v.string(), v.trim()))

export const EmailSchema = v.pipe(text(EMAIL_MAX_LENGTH), v.regex(EMAIL_PATTERN), v.toLowerCase())
export const UsernameSchema = v.pipe(text(USERNAME_MAX_LENGTH), v.regex(USERNAME_PATTERN))
/** A missing password reads as an empty one: the form has one message for both. */
export const PasswordSchema = v.pipe(
  v.optional(v.string(), ''),
  v.minLength(PASSWORD_MIN_LENGTH),
  v.maxLength(PASSWORD_MAX_LENGTH),
)
export const CodeSchema = v.pipe(v.string(), v.trim(), v.minLength(1), v.regex(CODE_PATTERN))

/** POST login?check=1: a username or a phone number (the server says which is missing). */
export const LoginSchema = v.object({
  username: optionalText,
  phone_number: optionalText,
  password: PasswordSchema,
})
/** POST login?auth=1 */
export const LoginAuthSchema = v.object({
  ...LoginSchema.entries,
  verification_code: CodeSchema,
  fcm_token: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(4096))),
})

/** POST send/verification-code */
export const EmailPayloadSchema = v.object({ email: EmailSchema })
/** POST check/verification-code */
export const CodeCheckSchema = v.object({ email: EmailSchema, verification_code: CodeSchema })
/** POST reset-password */
export const ResetSchema = v.object({
  email: EmailSchema,
  verification_code: CodeSchema,
  password: PasswordSchema,
  password_confirmation: v.optional(v.string(), ''),
})

/**
 * The storefront page an e-mailed reset link opens (its route `/reset-password/$token`), after
 * the store's public address: the server writes no other storefront address.
 */
export const resetLinkPage = (token: string) => `/#/reset-password/${token}`

/** POST reset-password-link: the token from the e-mailed link stands for e-mail and code. */
export const ResetLinkSchema = v.object({
  // Any text: one that is no token gets the link's own message, not a form error.
  token: v.pipe(v.optional(v.string(), ''), v.trim()),
  password: PasswordSchema,
  password_confirmation: v.optional(v.string(), ''),
})

// ---- replies --------------------------------------------------------------------------------

/** POST login?check=1 and signup?validate=1: the phone number the code was sent to. */
export const CodeSentReplySchema = v.object({
  message: v.string(),
  data: v.object({ phone_number: v.string() }),
})
export type CodeSentReply = v.InferOutput<typeof CodeSentReplySchema>

/** POST login?auth=1 and signup?auth=1 */
export const TokenReplySchema = v.object({ message: v.optional(v.string()), token: v.string() })

/**
 * POST send/verification-code. `code_sent` false: wrong codes from somewhere paused this
 * e-mail's codes, so the e-mail (if an account uses it) carries the reset link alone.
 */
export const ResetSentReplySchema = v.object({
  message: v.string(),
  data: v.object({ code_sent: v.boolean() }),
})

/** POST check/verification-code */
export const CodeCheckReplySchema = v.object({ data: v.object({ is_valid: v.boolean() }) })
