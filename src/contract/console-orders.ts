import * as v from 'valibot'
import { text } from './auth'
import { AmountSchema, pageOf } from './catalogue'
import { CODE_MAX_LENGTH, CODES_MAX, NOTE_MAX_LENGTH, REJECT_REASON_MAX_LENGTH } from './constants'
import { OrderSchema, OrderStatusSchema } from './orders'
import { CurrencySchema } from './profile'

/* The console's Orders screen (docs/api.md, Console): search, one order, and its actions. */

const DAY = /^\d{4}-\d{2}-\d{2}$/

const optionalText = (max: number) => v.optional(v.pipe(v.string(), v.trim(), v.maxLength(max)), '')

/**
 * POST admin/orders/{id}/complete. `codes`: one code a line (blank lines aside); `expiry`:
 * the codes' last day, YYYY-MM-DD, or empty.
 */
export const CompleteOrderSchema = v.object({
  codes: v.pipe(
    optionalText(CODES_MAX * (CODE_MAX_LENGTH + 1)),
    v.transform((s) =>
      s
        .split(/\r?\n/)
        .map((line) => line.trim())
        .filter(Boolean),
    ),
    v.maxLength(CODES_MAX),
    v.check((codes) => codes.every((c) => c.length <= CODE_MAX_LENGTH)),
  ),
  note: optionalText(NOTE_MAX_LENGTH),
  expiry: v.pipe(
    optionalText(10),
    v.check((s) => s === '' || (DAY.test(s) && !Number.isNaN(Date.parse(`${s}T00:00:00Z`)))),
  ),
})

/** POST admin/orders/{id}/cancel */
export const CancelOrderSchema = v.object({ reason: text(REJECT_REASON_MAX_LENGTH) })

const CustomerSchema = v.object({ id: v.number(), username: v.string(), phone_number: v.string() })

/** A line of GET admin/orders. */
export const ConsoleOrderLineSchema = v.object({
  id: v.number(),
  status: OrderStatusSchema,
  product_name: v.string(),
  package_name: v.nullable(v.string()),
  quantity: v.number(),
  total_price: AmountSchema,
  currency: CurrencySchema,
  customer: CustomerSchema,
  /** Day and time in the store's time zone. */
  date: v.string(),
  time: v.string(),
  created_at: v.string(),
})
export type ConsoleOrderLine = v.InferOutput<typeof ConsoleOrderLineSchema>

/** GET admin/orders */
export const ConsoleOrderPageSchema = pageOf(ConsoleOrderLineSchema)

/** What an order's history tells. */
export const ORDER_EVENTS = [
  'placed',
  'completed',
  'canceled',
  'hand_over_retried',
  'customer_notified',
] as const

const MoneySchema = v.object({ amount: AmountSchema, currency: CurrencySchema })

/** GET admin/orders/{id}: the order as its customer sees it, and what the operator needs. */
export const ConsoleOrderSchema = v.object({
  ...OrderSchema.entries,
  customer: v.object({
    ...CustomerSchema.entries,
    balance: AmountSchema,
    currency: CurrencySchema,
  }),
  /** What the order took from the wallet, and what went back (a cancel, a partial delivery). */
  debit: MoneySchema,
  refund: v.nullable(MoneySchema),
  /** The provider's reference once it took the order. */
  provider_ref: v.nullable(v.string()),
  /** Its order at an upstream panel, when its package is bought from one. */
  upstream: v.nullable(
    v.object({
      panel: v.string(),
      service: v.string(),
      state: v.string(),
      upstream_id: v.nullable(v.string()),
      upstream_status: v.nullable(v.string()),
      attempts: v.number(),
      reason: v.nullable(v.string()),
    }),
  ),
  /** Whether POST admin/orders/{id}/retry applies: a hand-over refused or of unknown outcome. */
  can_retry: v.boolean(),
  updated_at: v.string(),
  /** What happened to it, oldest first: its placing, the operators' actions, the notices sent. */
  history: v.array(
    v.object({
      at: v.string(),
      event: v.picklist(ORDER_EVENTS),
      /** Who: `console:<username>` or a CLI operator; null for the customer or the store. */
      actor: v.nullable(v.string()),
    }),
  ),
})
export type ConsoleOrder = v.InferOutput<typeof ConsoleOrderSchema>
export const ConsoleOrderReplySchema = v.object({ data: ConsoleOrderSchema })

/** POST admin/orders/{id}/complete, cancel and retry */
export const ConsoleOrderActionReplySchema = v.object({
  message: v.string(),
  data: v.object({ id: v.number(), status: OrderStatusSchema }),
})
