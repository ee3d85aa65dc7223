/*
 * The ways money comes into a wallet, each once (docs/architecture.md, "Adding a receipt
 * payment method"): the server's settings, the charging page, the console's settings form and
 * the operator's `settings:payments` read this list.
 *
 * - receipt: the customer sends a photo of a payment notice and an operator approves it; the
 *   owner sets its instructions (English and Arabic), its tax and whether it is offered.
 * - chain: USDT, paid to the store's address on a network and credited when it is seen.
 * - promo: a code that credits at once.
 *
 * `key` names the method's settings (`<key>_on`, `<key>_tax`, and for a receipt `<key>_text`,
 * `<key>_text_ar`), `option` its `settings:payments` options (`--<option>-text`,
 * `--<option>-tax`). `label` is its name, a Lingui message descriptor: the storefront's
 * catalogue (locales/<lang>/messages.po) and the server's (server.po) carry its texts.
 */

export type PaymentMethodKind = 'receipt' | 'chain' | 'promo'

interface Entry {
  id: string
  kind: PaymentMethodKind
  key?: string
  option?: string
  label: { id: string; message: string }
}

export const PAYMENT_METHODS = [
  {
    id: 'WHISH_MONEY',
    kind: 'receipt',
    key: 'whish_money',
    option: 'whish',
    label: /*i18n*/ { id: 'charging.method.WHISH_MONEY', message: 'Whish Money' },
  },
  {
    id: 'OMT_PAY',
    kind: 'receipt',
    key: 'omt_pay',
    option: 'omt',
    label: /*i18n*/ { id: 'charging.method.OMT_PAY', message: 'OMT Pay' },
  },
  {
    id: 'PROMO_CODE',
    kind: 'promo',
    label: /*i18n*/ { id: 'charging.method.PROMO_CODE', message: 'Code' },
  },
  {
    id: 'USDT',
    kind: 'chain',
    key: 'usdt',
    option: 'usdt',
    label: /*i18n*/ { id: 'charging.method.USDT', message: 'USDT' },
  },
] as const satisfies readonly Entry[]

export type PaymentMethodEntry = (typeof PAYMENT_METHODS)[number]
export type ChargingMethod = PaymentMethodEntry['id']
export type ReceiptMethodEntry = Extract<PaymentMethodEntry, { kind: 'receipt' }>
export type ReceiptMethod = ReceiptMethodEntry['id']
/** The methods with settings of their own (on, tax): all but codes. */
export type SetMethodEntry = Extract<PaymentMethodEntry, { key: string }>
export type SetMethodKey = SetMethodEntry['key']
export type ReceiptKey = ReceiptMethodEntry['key']

export const CHARGING_METHODS = PAYMENT_METHODS.map((m) => m.id)
export const RECEIPT_METHOD_ENTRIES = PAYMENT_METHODS.filter(
  (m): m is ReceiptMethodEntry => m.kind === 'receipt',
)
export const RECEIPT_METHODS = RECEIPT_METHOD_ENTRIES.map((m) => m.id)
export const SET_METHOD_ENTRIES = PAYMENT_METHODS.filter((m): m is SetMethodEntry => 'key' in m)

export const methodEntry = (id: ChargingMethod): PaymentMethodEntry =>
  PAYMENT_METHODS.find((m) => m.id === id)!

/** `<key><suffix>` of each method with settings: `setKeys('_tax')` is usdt_tax, whish_money_tax... */
export const setKeys = <S extends string>(suffix: S) =>
  SET_METHOD_ENTRIES.map((m) => `${m.key}${suffix}` as `${SetMethodKey}${S}`)
/** `<key><suffix>` of each receipt method: `receiptKeys('_text')` is whish_money_text... */
export const receiptKeys = <S extends string>(suffix: S) =>
  RECEIPT_METHOD_ENTRIES.map((m) => `${m.key}${suffix}` as `${ReceiptKey}${S}`)

/** An object with one entry per key, each made by `make` (typed by the keys' names). */
export function perKey<K extends string, V>(keys: readonly K[], make: (key: K) => V): Record<K, V> {
  return Object.fromEntries(keys.map((key) => [key, make(key)])) as Record<K, V>
}
