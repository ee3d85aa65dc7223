import * as v from 'valibot'
import { EmailSchema, text } from './auth'
import { AmountSchema } from './catalogue'
import { perKey, receiptKeys, setKeys } from './payment-methods'

/*
 * The console's settings (docs/api.md, Console: Settings), the owner's only: the payment
 * methods (on or off, their texts in both languages, their taxes, the USDT addresses), the
 * contact details and the about text the store shows. A form drops empty fields
 * (docs/api.md, Request bodies): a field left out is cleared.
 */

export const METHOD_TEXT_MAX_LENGTH = 1000
export const ABOUT_TEXT_MAX_LENGTH = 20_000
export const LINK_MAX_LENGTH = 255

/** A Tron address as people write it: T and 33 base58 characters (its checksum: the server). */
export const TRC20_ADDRESS_PATTERN = /^T[1-9A-HJ-NP-Za-km-z]{33}$/
/** A BNB Smart Chain address: 0x and 40 hex digits. */
export const BEP20_ADDRESS_PATTERN = /^0x[0-9a-fA-F]{40}$/
/** A tax percentage from 0 to 100, with at most 6 decimals. */
export const TAX_PATTERN = /^(100(\.0{1,6})?|\d{1,2}(\.\d{1,6})?)$/

const on = v.optional(v.picklist(['0', '1']), '0')
const optional = <S extends v.GenericSchema<string, unknown>>(schema: S) => v.optional(schema)
const tax = v.pipe(v.string(), v.trim(), v.minLength(1), v.regex(TAX_PATTERN))
const address = (pattern: RegExp) => optional(v.pipe(v.string(), v.trim(), v.regex(pattern)))
const methodText = optional(text(METHOD_TEXT_MAX_LENGTH))
/** A number's shape; the server reads it as its country's number (src/domain/phone.ts). */
const phone = optional(v.pipe(v.string(), v.trim(), v.maxLength(32), v.regex(/^\+?[0-9 ()-]{3,}$/)))
const link = optional(
  v.pipe(v.string(), v.trim(), v.maxLength(LINK_MAX_LENGTH), v.regex(/^https?:\/\/[^\s]+$/i)),
)

/** POST admin/settings/payments: every field of the form, as it stands. */
export const PaymentSettingsFormSchema = v.object({
  usdt_trc20: address(TRC20_ADDRESS_PATTERN),
  usdt_bep20: address(BEP20_ADDRESS_PATTERN),
  ...perKey(setKeys('_on'), () => on),
  ...perKey(setKeys('_tax'), () => tax),
  ...perKey(receiptKeys('_text'), () => methodText),
  ...perKey(receiptKeys('_text_ar'), () => methodText),
})
export type PaymentSettingsForm = v.InferOutput<typeof PaymentSettingsFormSchema>

/** POST admin/settings/contact: the server keeps the numbers as +961…, as customers' are. */
export const ContactSettingsFormSchema = v.object({
  email: v.optional(EmailSchema),
  first_phone_number: phone,
  second_phone_number: phone,
  whatsapp: phone,
  facebook: link,
  instagram: link,
  tiktok: link,
})
export type ContactSettingsForm = v.InferOutput<typeof ContactSettingsFormSchema>

/** POST admin/settings/texts: the about page's text in each language. */
export const SiteTextsFormSchema = v.object({
  about_us_text_en: optional(text(ABOUT_TEXT_MAX_LENGTH)),
  about_us_text_ar: optional(text(ABOUT_TEXT_MAX_LENGTH)),
})

const nullable = v.nullable(v.string())

export const SettingsSchema = v.object({
  payments: v.object({
    usdt_trc20: nullable,
    usdt_bep20: nullable,
    ...perKey(setKeys('_on'), () => v.boolean()),
    ...perKey(setKeys('_tax_percentage'), () => AmountSchema),
    ...perKey(receiptKeys('_text'), () => nullable),
    ...perKey(receiptKeys('_text_ar'), () => nullable),
    /** The address a chain watcher is configured with (USDT_TRC20_ADDRESS, ...): it wins. */
    watched_trc20: nullable,
    watched_bep20: nullable,
  }),
  contact: v.object({
    email: nullable,
    first_phone_number: nullable,
    second_phone_number: nullable,
    whatsapp: nullable,
    facebook: nullable,
    instagram: nullable,
    tiktok: nullable,
  }),
  texts: v.object({ about_us_text_en: v.string(), about_us_text_ar: v.string() }),
})
export type Settings = v.InferOutput<typeof SettingsSchema>

/** GET admin/settings */
export const SettingsReplySchema = v.object({ data: SettingsSchema })
/** POST admin/settings/payments, contact and texts: what was saved, and all the settings. */
export const SettingsSavedReplySchema = v.object({ message: v.string(), data: SettingsSchema })
