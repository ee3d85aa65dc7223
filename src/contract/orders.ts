import * as v from 'valibot'
import { AmountSchema, jsonList, pageOf } from './catalogue'
import { ORDER_STATUSES } from './constants'
import { CurrencySchema } from './profile'

export const OrderStatusSchema = v.picklist(ORDER_STATUSES)
export type OrderStatus = v.InferOutput<typeof OrderStatusSchema>

/** `item_codes` is a JSON string list of objects with a code. */
const ItemCodesSchema = jsonList(v.object({ code: v.string() }))

/** An order as the customer sees it (see docs/api.md, GET /api/orders). */
export const OrderSchema = v.object({
  id: v.number(),
  product_id: v.nullish(v.number()),
  package_id: v.nullish(v.number()),
  product_image: v.nullish(v.string()),
  product_name: v.string(),
  package_name: v.nullish(v.string()),
  quantity: v.number(),
  unit_price: v.nullish(AmountSchema),
  total_price: AmountSchema,
  currency: CurrencySchema,
  status: OrderStatusSchema,
  refuse_reason: v.nullish(v.string()),
  accept_note: v.nullish(v.string()),
  item_codes: ItemCodesSchema,
  expiry_date: v.nullish(v.string()),
  player_name: v.nullish(v.string()),
  player_number: v.nullish(v.string()),
  user: v.object({ username: v.string(), phone_number: v.string() }),
  service_type: v.nullish(v.string()),
  social_link: v.nullish(v.string()),
  wallet_address: v.nullish(v.string()),
  email_or_phone_number: v.nullish(v.string()),
  password: v.nullish(v.string()),
  contact_number: v.nullish(v.string()),
  /** The item's own fields (a player ID, a server) as the customer gave them. */
  requirements: v.nullish(
    v.array(v.object({ name: v.string(), label: v.string(), value: v.string() })),
    [],
  ),
  /** Day and time in the store's time zone. */
  date: v.string(),
  time: v.string(),
  /** The instant, ISO 8601 UTC, for showing it in the customer's own time zone. */
  created_at: v.nullish(v.string()),
})
export type Order = v.InferOutput<typeof OrderSchema>

export const OrderReplySchema = v.object({ data: OrderSchema })
export const OrderPageSchema = pageOf(OrderSchema)

/** POST automated/get/packages: the order placed, and the balance left. */
export const PlaceOrderReplySchema = v.object({
  message: v.string(),
  data: OrderSchema,
  balance: AmountSchema,
})

/**
 * The fields the order forms send; requirements add more (see docs/api.md,
 * POST /api/automated/get/packages).
 */
export const ORDER_FIELDS = [
  'product_id',
  'package_id',
  'qty',
  'quantity',
  'player_number',
  'player_name',
  'product_reference',
  'email_or_phone_number',
  'password',
  'contact_number',
  'service_type',
  'social_link',
  'wallet_address',
] as const
export type OrderField = (typeof ORDER_FIELDS)[number]

/** Values a form leaves out when empty; the server reads them as not sent. */
const DROPPED = new Set(['', 'null', 'undefined'])

/** An order form: the named fields and the item's requirement fields, all text. */
export type OrderBody = Partial<Record<OrderField, string>> & Record<string, string>

/**
 * POST automated/get/packages: the order form. Every value is text (a JSON `true`, list or
 * object is refused, never read as something else, whatever the field's name); the item's
 * requirement fields come under their own names beside the named fields. Values are trimmed
 * and those a form drops when empty are left out. `qty` and `quantity` are one field: a
 * request that gives both differently is refused rather than read one way for the price and
 * another for the Idempotency-Key. The output says which name the quantity came under, for
 * the messages about it.
 */
export const OrderRequestSchema = v.pipe(
  v.custom<OrderBody>((input) => typeof input === 'object' && input !== null),
  v.rawCheck(({ dataset, addIssue }) => {
    if (!dataset.typed) return
    for (const [key, value] of Object.entries(dataset.value)) {
      if (typeof value !== 'string') {
        const input = dataset.value
        addIssue({
          message: 'not text',
          path: [{ type: 'object', origin: 'value', input, key, value }],
        })
      }
    }
  }),
  v.transform((body): OrderBody => {
    const fields: OrderBody = {}
    for (const [name, value] of Object.entries(body)) {
      const text = value.trim()
      if (!DROPPED.has(text)) fields[name] = text
    }
    return fields
  }),
  v.forward(
    v.check((f) => f.qty === undefined || f.quantity === undefined || f.qty === f.quantity),
    ['quantity'],
  ),
  v.transform(({ qty, ...fields }): { fields: OrderBody; quantityName: 'qty' | 'quantity' } =>
    qty === undefined
      ? { fields, quantityName: 'quantity' }
      : { fields: { ...fields, quantity: qty }, quantityName: 'qty' },
  ),
)
export type OrderForm = v.InferOutput<typeof OrderRequestSchema>

/** Bounds every order field shares (the database columns are this wide). */
export const ORDER_TEXT_MAX = 255
/** The largest quantity one order may ask for. */
export const ORDER_QUANTITY_MAX = 100_000_000

/** GET th-p-apis/{id}?number= and automated/get/player/name/...: the player's name. */
export const PlayerLookupReplySchema = v.object({ data: v.object({ username: v.string() }) })

/** GET player_number/info?product_id= */
export const PlayerNumberReplySchema = v.object({
  data: v.object({ player_number: v.nullish(v.string()) }),
})

/** GET automated/get/status/bulk */
export const StatusBulkReplySchema = v.object({
  message: v.string(),
  data: v.object({ updated: v.number() }),
})

export { DATE_RANGE_MARK, ORDER_FILTER_STATUSES } from './constants'
