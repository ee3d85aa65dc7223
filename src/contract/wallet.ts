import * as v from 'valibot'
import { CurrencySchema } from './profile'
import { AmountSchema, pageOf } from './catalogue'
import {
  CHARGING_METHODS,
  perKey,
  receiptKeys,
  RECEIPT_METHODS,
  setKeys,
  type ChargingMethod,
  type ReceiptMethod,
} from './payment-methods'
import { RECEIPT_MAX_BYTES, RECEIPT_TYPES, USDT_MIN, WALLET_LOG_STATUSES } from './constants'

export { RECEIPT_MAX_BYTES, RECEIPT_TYPES, USDT_MIN, WALLET_LOG_STATUSES }
export const WalletLogStatusSchema = v.picklist(WALLET_LOG_STATUSES)
export type WalletLogStatus = v.InferOutput<typeof WalletLogStatusSchema>

/** One line of the wallet's history (a payment log). */
export const PaymentLogSchema = v.object({
  id: v.number(),
  status: WalletLogStatusSchema,
  name: v.string(),
  previous_balance: AmountSchema,
  value: AmountSchema,
  current_balance: AmountSchema,
  currency: CurrencySchema,
  /** Day and time in the store's time zone. */
  date: v.string(),
  time: v.string(),
  /** The instant, ISO 8601 UTC. */
  created_at: v.nullish(v.string()),
})
export type PaymentLog = v.InferOutput<typeof PaymentLogSchema>

/** GET payment-logs: a page of the history, with the wallet's totals for the cards. */
export const PaymentLogPageSchema = v.object({
  ...pageOf(PaymentLogSchema).entries,
  user: v.object({
    current_balance: AmountSchema,
    /** Money in (Charged lines) in the wallet's currency. */
    total_shipped: AmountSchema,
    /** Money out (Discounted lines) in the wallet's currency. */
    total_spent: AmountSchema,
    currency: CurrencySchema,
  }),
})
export type PaymentLogPage = v.InferOutput<typeof PaymentLogPageSchema>

export const PaymentLogReplySchema = v.object({ data: PaymentLogSchema })

/** How a top-up arrives (the methods: ./payment-methods.ts). */
export { CHARGING_METHODS, RECEIPT_METHODS, type ChargingMethod, type ReceiptMethod }
export const ChargingMethodSchema = v.picklist(CHARGING_METHODS)

export const CHARGING_STATUSES = ['WAITING', 'COMPLETED', 'CANCELED'] as const
export const ChargingStatusSchema = v.picklist(CHARGING_STATUSES)
export type ChargingStatus = v.InferOutput<typeof ChargingStatusSchema>

/** A charging process (a shipping payment): a top-up and what became of it. */
export const ChargingProcessSchema = v.object({
  id: v.number(),
  name: ChargingMethodSchema,
  /** The receipt photo, for its owner only (fetched with the token), or null. */
  image: v.nullish(v.string()),
  value: AmountSchema,
  /** What reaches the wallet: the value less the method's tax. */
  shipping_value: AmountSchema,
  tax_percentage: v.nullish(AmountSchema, 0),
  currency: CurrencySchema,
  status: ChargingStatusSchema,
  reject_reason: v.nullish(v.string()),
  date: v.string(),
  time: v.string(),
  created_at: v.nullish(v.string()),
})
export type ChargingProcess = v.InferOutput<typeof ChargingProcessSchema>
export const ChargingProcessPageSchema = pageOf(ChargingProcessSchema)
export const ChargingProcessReplySchema = v.object({ data: ChargingProcessSchema })

/** POST charging-processes: the process created, and the balance after it (a promo credits at once). */
export const ChargeReplySchema = v.object({
  message: v.string(),
  data: ChargingProcessSchema,
  balance: AmountSchema,
})

/**
 * GET payments/info: what the charging page offers, set by the operator: the USDT addresses,
 * each receipt method's instructions (`<key>_text`, none when it is not offered) and each
 * method's tax (`<key>_tax_percentage`).
 */
export const PaymentInfoSchema = v.object({
  usdt_trc20: v.nullish(v.string()),
  usdt_bep20: v.nullish(v.string()),
  ...perKey(receiptKeys('_text'), () => v.nullish(v.string())),
  ...perKey(setKeys('_tax_percentage'), () => v.nullish(AmountSchema, 0)),
})
export type PaymentInfo = v.InferOutput<typeof PaymentInfoSchema>
export const PaymentInfoReplySchema = v.object({ data: PaymentInfoSchema })

/** The largest top-up one request may declare, in the wallet's currency. */
export const CHARGE_VALUE_MAX = 1_000_000_000
export const PROMO_CODE_MAX = 64

/** A value typed in a top-up form: a positive decimal with at most 6 decimals. */
export const ChargeValueSchema = v.pipe(
  v.string(),
  v.trim(),
  v.minLength(1),
  v.regex(/^\d{1,13}(\.\d{1,6})?$/),
  v.check((s) => Number(s) > 0 && Number(s) <= CHARGE_VALUE_MAX),
)

/**
 * POST charging-processes (multipart) for a receipt method: the value and a receipt
 * photo; `image` is undefined when the form carries no file there (the server says so in its
 * own words).
 */
export const ReceiptChargeSchema = v.object({
  name: v.picklist(RECEIPT_METHODS),
  value: ChargeValueSchema,
  image: v.fallback(v.optional(v.instance(Blob)), undefined),
})

/** POST charging-processes?name=PROMO_CODE */
export const PromoChargeSchema = v.object({
  promo_code: v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(PROMO_CODE_MAX)),
})

// ---- USDT -----------------------------------------------------------------------------------

export const USDT_NETWORKS = ['trc20', 'bep20'] as const
export const UsdtNetworkSchema = v.picklist(USDT_NETWORKS)
export type UsdtNetwork = v.InferOutput<typeof UsdtNetworkSchema>
/** The largest top-up by USDT one request may ask (the smallest: USDT_MIN). */
export const USDT_MAX = 100_000

/** POST wallet/request-payment */
export const UsdtRequestSchema = v.object({
  amount: v.pipe(
    v.string(),
    v.trim(),
    v.minLength(1),
    v.regex(/^\d{1,6}(\.\d{1,2})?$/),
    v.check((s) => Number(s) >= USDT_MIN && Number(s) <= USDT_MAX),
  ),
  network: v.pipe(v.string(), v.trim(), v.toLowerCase(), UsdtNetworkSchema),
})

/** A USDT payment the customer is asked to make, and whether it arrived. */
export const UsdtPaymentSchema = v.object({
  payment_id: v.number(),
  network: UsdtNetworkSchema,
  wallet_address: v.string(),
  /** What to send, exactly: it tells this payment apart from every other. */
  unique_amount: v.string(),
  /** What the QR code holds: the network's payment URI where wallets read one, else the address. */
  qr_code_url: v.string(),
  /** What the wallet receives, after the USDT tax. */
  credited_amount: AmountSchema,
  expires_at: v.string(),
  paid: v.boolean(),
  expired: v.boolean(),
})
export type UsdtPayment = v.InferOutput<typeof UsdtPaymentSchema>
/** POST wallet/request-payment and GET wallet/check-payment/{id}: the payment, at the top level. */
export const UsdtPaymentReplySchema = v.object({
  ...UsdtPaymentSchema.entries,
  message: v.optional(v.string()),
})
/** GET wallet/open-payment: the customer's payment still waiting, if any. */
export const OpenUsdtPaymentReplySchema = v.object({ data: v.nullable(UsdtPaymentSchema) })
