import * as v from 'valibot'
import { text } from './auth'
import { AmountSchema } from './catalogue'
import { PASSWORD_MAX_LENGTH, REJECT_REASON_MAX_LENGTH } from './constants'
import { CurrencySchema } from './profile'
import { ChargingMethodSchema, ChargingProcessSchema } from './wallet'

/*
 * The operator console (docs/api.md, Console): its own accounts, sessions and calls under
 * /api/admin/, which customers' tokens and API tokens never open.
 */

export const OPERATOR_ROLES = ['owner', 'operator'] as const
export const OperatorRoleSchema = v.picklist(OPERATOR_ROLES)
export type OperatorRole = v.InferOutput<typeof OperatorRoleSchema>

/** An authenticator's 6 digits, or a recovery code (10 letters and digits, dashes and spaces aside). */
export const SECOND_FACTOR_PATTERN = /^(\d{6}|[A-Za-z0-9]{5}[-\s]?[A-Za-z0-9]{5})$/

/** POST admin/sign-in */
export const ConsoleSignInSchema = v.object({
  username: text(50),
  password: v.pipe(v.string(), v.minLength(1), v.maxLength(PASSWORD_MAX_LENGTH)),
  code: v.pipe(v.string(), v.trim(), v.regex(SECOND_FACTOR_PATTERN)),
})

/** POST admin/top-ups/{id}/reject */
export const RejectTopUpSchema = v.object({ reason: text(REJECT_REASON_MAX_LENGTH) })

export const OperatorSchema = v.object({
  id: v.number(),
  username: v.string(),
  role: OperatorRoleSchema,
})
export type Operator = v.InferOutput<typeof OperatorSchema>
/** GET admin/me, POST admin/sign-in */
export const OperatorReplySchema = v.object({ data: OperatorSchema })

/** GET admin/operators (owner only) */
export const OperatorListReplySchema = v.object({
  data: v.array(
    v.object({
      ...OperatorSchema.entries,
      second_factor: v.boolean(),
      disabled_at: v.nullable(v.string()),
      created_at: v.string(),
    }),
  ),
})

/** An amount per currency: today's sales or top-ups. */
const TotalSchema = v.object({ currency: CurrencySchema, amount: AmountSchema, count: v.number() })

/** GET admin/today */
export const TodayReplySchema = v.object({
  data: v.object({
    waiting_top_ups: v.number(),
    waiting_orders: v.number(),
    failed_hand_overs: v.number(),
    unmatched_transfers: v.number(),
    /** Packages with stock at or below their threshold; null when nothing is stocked. */
    low_stock: v.nullable(v.number()),
    sales: v.array(TotalSchema),
    top_ups: v.array(TotalSchema),
  }),
})
export type Today = v.InferOutput<typeof TodayReplySchema>['data']

/** A customer's recent top-up, in the queue's history. */
const HistoryLineSchema = v.object({
  id: v.number(),
  name: ChargingMethodSchema,
  value: AmountSchema,
  currency: CurrencySchema,
  status: ChargingProcessSchema.entries.status,
  created_at: v.string(),
})

/** GET admin/top-ups: the waiting receipts, oldest first, each with its customer. */
export const TopUpQueueReplySchema = v.object({
  data: v.array(
    v.object({
      ...ChargingProcessSchema.entries,
      /** The receipt photo for console sessions (admin/top-ups/{id}/receipt), or null. */
      image: v.nullable(v.string()),
      customer: v.object({
        id: v.number(),
        username: v.string(),
        phone_number: v.string(),
        balance: AmountSchema,
        currency: CurrencySchema,
        /** Their last top-ups before this one, newest first. */
        history: v.array(HistoryLineSchema),
      }),
    }),
  ),
})
export type TopUpQueue = v.InferOutput<typeof TopUpQueueReplySchema>['data']

/** POST admin/top-ups/{id}/approve and reject */
export const TopUpDecisionReplySchema = v.object({
  message: v.string(),
  data: v.object({ id: v.number(), status: ChargingProcessSchema.entries.status }),
})
