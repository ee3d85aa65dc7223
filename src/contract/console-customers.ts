import * as v from 'valibot'
import { text } from './auth'
import { AmountSchema, pageOf } from './catalogue'
import { LocaleSchema } from './common'
import { REJECT_REASON_MAX_LENGTH } from './constants'
import { CurrencySchema, UserTypeSchema } from './profile'
import { ChargeValueSchema } from './wallet'

/*
 * The console's Customers and Audit screens (docs/api.md, Console): find an account, read its
 * wallet, correct its balance, switch it off or on, sign it out, set its type; and the audit
 * log of what operators did.
 */

/** A customer's account as the console lists it. */
export const ConsoleCustomerSchema = v.object({
  id: v.number(),
  username: v.string(),
  phone_number: v.string(),
  email: v.nullable(v.string()),
  type: UserTypeSchema,
  currency: CurrencySchema,
  balance: AmountSchema,
  disabled_at: v.nullable(v.string()),
  created_at: v.string(),
})
export type ConsoleCustomer = v.InferOutput<typeof ConsoleCustomerSchema>

/** GET admin/customers?q=&page= */
export const CustomerSearchReplySchema = pageOf(ConsoleCustomerSchema)
export type CustomerSearchPage = v.InferOutput<typeof CustomerSearchReplySchema>

/** The account with what its screen shows besides: its live sessions. */
export const CustomerDetailSchema = v.object({
  ...ConsoleCustomerSchema.entries,
  locale: LocaleSchema,
  /** Signed-in devices (live storefront sessions). */
  sessions: v.number(),
})
export type CustomerDetail = v.InferOutput<typeof CustomerDetailSchema>

/** GET admin/customers/{id} */
export const CustomerDetailReplySchema = v.object({ data: CustomerDetailSchema })

/** The replies of the account's actions: what was done, and the account after it. */
export const CustomerActionReplySchema = v.object({
  message: v.string(),
  data: CustomerDetailSchema,
})

export const CORRECTION_DIRECTIONS = ['credit', 'debit'] as const

/** POST admin/customers/{id}/balance: an amount in the wallet's currency, with the reason. */
export const BalanceCorrectionSchema = v.object({
  direction: v.picklist(CORRECTION_DIRECTIONS),
  amount: ChargeValueSchema,
  reason: text(REJECT_REASON_MAX_LENGTH),
})

/** POST admin/customers/{id}/disable */
export const DisableCustomerSchema = v.object({
  reason: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(REJECT_REASON_MAX_LENGTH)), ''),
})

/** POST admin/customers/{id}/type */
export const AccountTypeSchema = v.object({ type: UserTypeSchema })

/** One line of the audit log. */
export const AuditLineSchema = v.object({
  id: v.number(),
  /** The instant, ISO 8601 UTC, and its day and time in the store's zone. */
  created_at: v.string(),
  date: v.string(),
  time: v.string(),
  /** `console:<operator>`, or the name the CLI ran under. */
  actor: v.string(),
  action: v.string(),
  /** The account it was about, if any. */
  user_id: v.nullable(v.number()),
  username: v.nullable(v.string()),
  /** The console request's address; null for the CLI. */
  address: v.nullable(v.string()),
  request_id: v.nullable(v.string()),
  /** What changed: `before` and `after` where there is a state, the reason and the rest. */
  details: v.record(v.string(), v.unknown()),
})
export type AuditLine = v.InferOutput<typeof AuditLineSchema>

/** GET admin/audit: a page, newest first, with the actors and actions the filters offer. */
export const AuditPageReplySchema = v.object({
  ...pageOf(AuditLineSchema).entries,
  actors: v.array(v.string()),
  actions: v.array(v.string()),
})
export type AuditPage = v.InferOutput<typeof AuditPageReplySchema>
