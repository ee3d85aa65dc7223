import * as v from 'valibot'
import { CurrencySchema } from './profile'
import { API_TOKEN_PATTERN } from './token'

/*
 * POST /api/v2: the reseller API in the shape SMM panels speak ("API v2": `key`, `action`,
 * decimals as strings, errors as `{"error": ...}`), so a panel connects with no code. `key` is
 * the account's API token. See docs/api.md, "Reseller API (v2)".
 */

export const V2_ACTIONS = [
  'services',
  'add',
  'status',
  'balance',
  'refill',
  'refill_status',
  'cancel',
] as const
export const V2ActionSchema = v.picklist(V2_ACTIONS)
export type V2Action = v.InferOutput<typeof V2ActionSchema>

/** `orders` of a status call: at most this many ids at once. */
export const V2_STATUS_MAX_ORDERS = 100

/** A service id: a whole number (the first digit says what it is; see docs/api.md). */
export const V2_SERVICE_ID = /^[1-9]\d{0,15}$/
/** An order id as a panel sends it. */
export const V2_ORDER_ID = /^[1-9]\d{0,15}$/

// ---- requests -------------------------------------------------------------------------------

/**
 * A field as panels send it: text, trimmed (a JSON number is read as text, docs/api.md, Request
 * bodies). Anything else (a list, an object, null) reads as not sent, so a call is never
 * refused for a field's type: what is missing or wrong is said by the action (401 for the key,
 * then 400 for the action, then the action's own refusal).
 */
const Text = v.fallback(v.optional(v.pipe(v.string(), v.trim())), undefined)
/** The same, and not given either unless it passes `item`. */
const textThat = <T>(item: v.GenericPipeItem<string, T>) =>
  v.fallback(v.optional(v.pipe(v.string(), v.trim(), item)), undefined)

/** The fields of a call as they were read, by name; an add passes the item's own fields on. */
const FieldsSchema = v.custom<Readonly<Record<string, unknown>>>(
  (input) => typeof input === 'object' && input !== null && !Array.isArray(input),
)

/** `key` (an API token's shape, else not given) and `action` (in any case). */
const V2CallSchema = v.object({
  key: textThat(v.regex(API_TOKEN_PATTERN)),
  action: textThat(v.pipe(v.string(), v.toLowerCase(), V2ActionSchema)),
})

/** Every call: its key and action, and its fields for the action's own schema below. */
export const V2RequestSchema = v.pipe(
  FieldsSchema,
  v.transform((fields) => ({ ...v.parse(V2CallSchema, fields), fields })),
)

/** action=add; the item's own fields (player_number, a requirement's name...) ride along. */
export const V2AddSchema = v.object({
  /** Not given unless it has a service id's shape (`Incorrect service ID.`). */
  service: textThat(v.regex(V2_SERVICE_ID)),
  quantity: Text,
  link: Text,
})

/** action=status, refill and cancel: one `order`, or `orders` comma-separated. */
export const V2OrdersRequestSchema = v.object({ order: Text, orders: Text })

/** action=refill_status: `refills` comma-separated. */
export const V2RefillStatusRequestSchema = v.object({ refills: Text })

// ---- replies --------------------------------------------------------------------------------

/**
 * Every failure: one English (or `local=ar`) sentence. An expected refusal (a bad key, service,
 * order or field) comes with 200, as panels answer it; only 413, 429 and 5xx keep their status.
 */
export const V2ErrorSchema = v.object({ error: v.string() })
export type V2Error = v.InferOutput<typeof V2ErrorSchema>

/** Decimal text such as "0.9345": panels read amounts as strings. */
const Decimal = v.pipe(v.string(), v.regex(/^\d+(\.\d{1,6})?$/))
const WholeNumber = v.pipe(v.string(), v.regex(/^\d+$/))

/**
 * `Default`: `link` and `quantity`. `Package`: one unit per order, whatever the quantity (the
 * Free Fire variant).
 */
export const V2ServiceTypeSchema = v.picklist(['Default', 'Package'])

export const V2ServiceSchema = v.object({
  service: v.number(),
  name: v.string(),
  type: V2ServiceTypeSchema,
  category: v.string(),
  /** What 1000 units cost, in the account's currency, by the storefront's pricing rule. */
  rate: Decimal,
  min: WholeNumber,
  max: WholeNumber,
  refill: v.boolean(),
  cancel: v.boolean(),
  /** Drip-feed (`runs` and `interval`): never; an add that asks for it is refused. */
  dripfeed: v.boolean(),
})
export type V2Service = v.InferOutput<typeof V2ServiceSchema>
export const V2ServicesReplySchema = v.array(V2ServiceSchema)

export const V2AddReplySchema = v.object({ order: v.number() })

/**
 * WAITING (and FAILED, which an operator decides) is Pending until it is done; Partial is
 * completed with `remains` not delivered and refunded.
 */
export const V2StatusSchema = v.picklist(['Pending', 'Completed', 'Partial', 'Canceled'])

export const V2OrderStatusSchema = v.object({
  /** The order's total, in `currency`. */
  charge: Decimal,
  /** What the target counted when delivery started: the store delivers codes, so always 0. */
  start_count: WholeNumber,
  status: V2StatusSchema,
  /** 0 once completed; the whole quantity before, and when canceled (it was refunded); what was refunded of a Partial. */
  remains: WholeNumber,
  currency: CurrencySchema,
})
export type V2OrderStatus = v.InferOutput<typeof V2OrderStatusSchema>

/** `orders=1,2,3`: each id with its status, or an error for an id that is not the caller's. */
export const V2MultiStatusReplySchema = v.record(
  v.string(),
  v.union([V2OrderStatusSchema, V2ErrorSchema]),
)
export type V2MultiStatusReply = v.InferOutput<typeof V2MultiStatusReplySchema>

export const V2BalanceReplySchema = v.object({ balance: Decimal, currency: CurrencySchema })

/** An order or refill id as the caller sent it: a number when it is one. */
const SentId = v.union([v.number(), v.string()])

/** `refill` or `cancel` with `orders=1,2`: one entry an id, done (1) or refused. */
export const V2RefillManyReplySchema = v.array(
  v.object({ order: SentId, refill: v.union([v.number(), V2ErrorSchema]) }),
)
export const V2CancelReplySchema = v.array(
  v.object({ order: SentId, cancel: v.union([v.number(), V2ErrorSchema]) }),
)
/** `refill_status` with `refills=1,2`: the store makes no refills, so each is not found. */
export const V2RefillStatusManyReplySchema = v.array(
  v.object({ refill: SentId, status: v.union([v.string(), V2ErrorSchema]) }),
)
