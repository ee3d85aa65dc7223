import * as v from 'valibot'
import { normalisePhone } from '../domain/phone'
import { CodeSchema, EmailSchema, PasswordSchema, UsernameSchema, text } from './auth'

// The sign-up's requests, apart from ./auth.ts: the storefront reads that module's replies,
// and these hold the phone rules (libphonenumber-js), which it loads only with a phone field
// (docs/performance.md, The first load).

/** Any way people write a number; the output is E.164 (+ added, 9610 read as 961). */
export const PhoneSchema = v.pipe(
  text(32),
  v.check((s) => normalisePhone(s) !== null),
  v.transform((s) => normalisePhone(s) ?? s),
)

/** POST signup?validate=1 */
export const NewUserSchema = v.object({
  email: EmailSchema,
  username: UsernameSchema,
  phone_number: PhoneSchema,
  password: PasswordSchema,
})
export type NewUserInput = v.InferOutput<typeof NewUserSchema>

/** POST signup?auth=1 */
export const SignupAuthSchema = v.object({
  ...NewUserSchema.entries,
  verification_code: CodeSchema,
})
