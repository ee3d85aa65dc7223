import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { setupI18n, type I18n } from '@lingui/core'
import { compileMessage } from '@lingui/message-utils/compileMessage'
import { INTL_LOCALES, LocaleSchema, type Locale } from '../src/contract/common'
import { PAYMENT_METHODS, receiptKeys, setKeys } from '../src/contract/payment-methods'

export const LOCALES = LocaleSchema.options
export const DEFAULT_LOCALE: Locale = 'en'

/**
 * Every message the server may say. `t()` only takes these, so a typo fails type-checking,
 * and start-up fails if a catalogue lacks one.
 */
export const MESSAGE_IDS = [
  'messages.sent',
  'validation.required',
  'validation.phone_number.invalid',
  'validation.max_length',
  'validation.invalid',
  'field.name',
  'field.phone_number',
  'field.message',
  'field.email',
  'field.username',
  'field.password',
  'field.password_confirmation',
  'field.verification_code',
  'field.locale',
  'field.currency',
  'validation.email.invalid',
  'validation.email.taken',
  'validation.username.invalid',
  'validation.username.taken',
  'validation.phone_number.taken',
  'validation.password.min_length',
  'validation.password.confirmation',
  'validation.login.required',
  'validation.code.format',
  'auth.code_sent',
  'auth.failed',
  'auth.busy',
  'auth.too_many_failures',
  'auth.signed_up',
  'auth.signed_in',
  'auth.signed_out',
  'auth.unauthenticated',
  'auth.reset_sent',
  'auth.password_reset',
  'codes.invalid',
  'codes.expired',
  'codes.locked',
  'codes.wait',
  'codes.too_many',
  'codes.delivery_failed',
  'codes.message',
  'codes.mail_subject',
  'profile.locale_changed',
  'profile.currency_changed',
  'profile.currency_overflow',
  'field.token',
  'field.ip_whitelist',
  'token.saved',
  'token.whitelist.line',
  'token.whitelist.too_many',
  'token.whitelist.everyone',
  'auth.api_token.invalid',
  'auth.api_token.off',
  'auth.api_token.address',
  'auth.api_token.forbidden',
  'v2.action.invalid',
  'v2.service.invalid',
  'v2.order.invalid',
  'v2.orders.too_many',
  'v2.refill.unavailable',
  'v2.cancel.unavailable',
  'v2.refill.invalid',
  'v2.dripfeed.unavailable',
  'v2.comments.unavailable',
  'v2.post_only',
  'errors.not_found',
  'errors.server',
  'errors.bad_request',
  'errors.payload_too_large',
  'errors.nul_character',
  'catalogue.product_not_found',
  'catalogue.package_not_found',
  'catalogue.group_not_found',
  'field.quantity',
  'field.player_number',
  'field.player_name',
  'field.service_type',
  'field.social_link',
  'field.wallet_address',
  'field.email_or_phone_number',
  'field.contact_number',
  'field.product_reference',
  'field.product_id',
  'order.placed',
  'order.item.required',
  'order.unavailable',
  'order.quantity.integer',
  'order.quantity.min',
  'order.quantity.max',
  'order.service_type.invalid',
  'order.field.required',
  'order.field.too_long',
  'order.field.characters',
  'order.email_or_phone.invalid',
  'order.total.too_large',
  'order.player_number.unverified',
  'order.balance.insufficient',
  'order.currency_changed',
  'order.idempotency.invalid',
  'order.idempotency.conflict',
  'order.not_found',
  'order.status_refreshed',
  'order.provider_unavailable',
  'order.canceled_by_provider',
  'wallet.order_debit',
  'wallet.order_refund',
  'notification.order_completed.title',
  'notification.order_completed.body',
  'notification.order_canceled.title',
  'notification.order_canceled.body',
  'order.partial_note',
  'wallet.order_partial_refund',
  'notification.order_partial.title',
  'notification.order_partial.body',
  'notification.wallet_credited.title',
  'notification.wallet_credited.body',
  'player.number_required',
  'player.not_found',
  'player.unavailable',
  'auth.disabled',
  'notification.wallet_debited.title',
  'notification.wallet_debited.body',
  'errors.rate_limited',
  'errors.cross_site',
  'errors.busy',
  'codes.country',
  'codes.busy',
  'codes.locked_hours',
  'codes.locked_days',
  'codes.notice_subject',
  'codes.notice',
  'codes.reset_message',
  'codes.reset_link_only',
  'codes.reset_subject',
  'auth.reset_link_sent',
  'reset_link.invalid',
  'reset_link.used',
  'reset_link.expired',
  'field.method',
  'field.value',
  'field.promo_code',
  'validation.amount',
  ...PAYMENT_METHODS.map((m) => m.label.id),
  'charging.method_unavailable',
  'charging.created',
  'charging.too_many_waiting',
  'charging.not_found',
  'charging.receipt.missing',
  'charging.receipt.not_image',
  'charging.receipt.too_large',
  'charging.receipt.too_many_pixels',
  'charging.receipt.busy',
  'payment_log.not_found',
  'promo.invalid',
  'promo.expired',
  'promo.used_up',
  'promo.already_used',
  'promo.redeemed',
  'promo.too_many',
  'wallet.charge_credit',
  'wallet.currency_change',
  'wallet.demo_credit',
  'notification.charge_completed.title',
  'notification.charge_completed.body',
  'notification.charge_canceled.title',
  'notification.charge_canceled.body',
  'field.network',
  'usdt.requested',
  'usdt.usd_only',
  'usdt.network_unavailable',
  'usdt.busy',
  'usdt.not_found',
  'usdt.hash_used',
  'usdt.already_paid',
  'usdt.bad_hash',
  'usdt.wrong_network',
  'usdt.name_log',
  'notification.not_found',
  'notification.deleted',
  'notification.push_saved',
  'field.fcm_token',
  'list.sort_by.invalid',
  'list.sort_value.invalid',
  'list.state.invalid',
  'list.state.none',
  'field.second_factor',
  'field.reason',
  'validation.second_factor',
  'console.failed',
  'console.forbidden',
  'console.unauthenticated',
  'console.owner_only',
  'console.signed_out_everywhere',
  'console.top_up_approved',
  'console.top_up_rejected',
  'console.top_up_decided',
  'field.status',
  'field.date',
  'field.codes',
  'field.note',
  'field.expiry',
  'validation.codes',
  'validation.day',
  'console.order_completed',
  'console.order_canceled',
  'console.order_decided',
  'console.order_retried',
  'console.order_no_retry',
  'field.direction',
  'field.account_type',
  'console.customer_not_found',
  'console.balance_credited',
  'console.balance_debited',
  'console.balance_too_low',
  'console.balance_too_large',
  'console.customer_disabled',
  'console.customer_enabled',
  'console.sessions_revoked',
  'console.now_company',
  'console.now_customer',
  'field.usdt_trc20',
  'field.usdt_bep20',
  // Each payment method's settings: field.usdt_tax, field.whish_money_text...
  ...setKeys('_tax').map((key) => `field.${key}` as const),
  ...receiptKeys('_text').map((key) => `field.${key}` as const),
  ...receiptKeys('_text_ar').map((key) => `field.${key}` as const),
  'field.whatsapp',
  'field.facebook',
  'field.instagram',
  'field.tiktok',
  'field.about_us_text_en',
  'field.about_us_text_ar',
  'validation.usdt_address',
  'validation.tax',
  'validation.link',
  'console.settings_saved',
  'field.tx_hash',
  'console.usdt_confirmed',
  'console.push_saved',
  'console.alert.receipt.title',
  'console.alert.receipt.body',
  'console.alert.transfer.title',
  'console.alert.transfer.body',
  'promo.taken',
  'promo.not_found',
  'promo.created',
  'promo.disabled',
  'promo.disabled_already',
  'catalogue.not_found',
  'console.now_available',
  'console.now_unavailable',
  'console.prices_saved',
  'console.catalogue_imported',
  'console.catalogue_refused',
  'console.catalogue_file_missing',
  'console.slider_removed',
  'console.slider_moved',
  'console.slider_added',
  'console.slider_missing',
  'field.promo_code',
  'field.uses',
  'field.expires',
  'field.company_price',
  'field.company_percentage',
  'field.product_percentage',
  'validation.promo_code',
] as const
export type MessageId = (typeof MESSAGE_IDS)[number]

export const CATALOG_DIR = join(import.meta.dirname, '..', 'locales')
export const catalogPath = (locale: Locale, dir = CATALOG_DIR) => join(dir, locale, 'server.po')

const unescapePo = (s: string) =>
  s.replace(/\\(["\\nt])/g, (_, c: string) => (c === 'n' ? '\n' : c === 't' ? '\t' : c))

/**
 * A small gettext reader: msgid/msgstr pairs with multi-line strings. Enough for our
 * hand-written catalogues, and it keeps @lingui/format-po (a build tool) out of the server's
 * runtime dependencies. Fuzzy entries count as untranslated.
 */
export function parsePo(text: string): Map<string, string> {
  const entries = new Map<string, string>()
  let id: string | undefined
  let str: string | undefined
  let field: 'id' | 'str' | undefined
  let fuzzy = false
  const flush = () => {
    if (id && str !== undefined && !fuzzy) entries.set(id, str)
    id = str = field = undefined
    fuzzy = false
  }
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim()
    if (line === '') {
      flush()
    } else if (line.startsWith('#')) {
      if (str !== undefined) flush()
      if (line.startsWith('#,') && line.includes('fuzzy')) fuzzy = true
    } else if (line.startsWith('msgid ')) {
      if (str !== undefined) flush()
      id = unescapePo(line.slice(7, -1))
      field = 'id'
    } else if (line.startsWith('msgstr ')) {
      str = unescapePo(line.slice(8, -1))
      field = 'str'
    } else if (line.startsWith('"')) {
      const part = unescapePo(line.slice(1, -1))
      if (field === 'id') id = (id ?? '') + part
      else if (field === 'str') str = (str ?? '') + part
    }
  }
  flush()
  return entries
}

export function readCatalog(locale: Locale, dir = CATALOG_DIR): Map<string, string> {
  return parsePo(readFileSync(catalogPath(locale, dir), 'utf8'))
}

function createI18n(locale: Locale, dir: string): I18n {
  const catalog = readCatalog(locale, dir)
  const missing = MESSAGE_IDS.filter((id) => !catalog.get(id))
  if (missing.length > 0) {
    throw new Error(`${catalogPath(locale, dir)} lacks translations for: ${missing.join(', ')}`)
  }
  const messages = Object.fromEntries(
    MESSAGE_IDS.map((id) => [id, compileMessage(catalog.get(id) ?? id)]),
  )
  return setupI18n({ locale, locales: INTL_LOCALES[locale], messages: { [locale]: messages } })
}

// One I18n per locale, loaded at start: `activate()` is global to an instance, and requests in
// different languages run concurrently.
const instances = Object.fromEntries(LOCALES.map((l) => [l, createI18n(l, CATALOG_DIR)])) as Record<
  Locale,
  I18n
>

export function t(locale: Locale, id: MessageId, values?: Record<string, unknown>): string {
  return instances[locale]._(id, values)
}

export function isMessageId(value: string): value is MessageId {
  return (MESSAGE_IDS as readonly string[]).includes(value)
}

export function isLocale(value: unknown): value is Locale {
  return (LOCALES as readonly unknown[]).includes(value)
}

/**
 * A catalogue text in the customer's language: the Arabic one when there is one (an empty
 * Arabic text counts as none), else the English one.
 */
export function localized<T extends string | null>(
  locale: Locale,
  en: T,
  ar: string | null,
): T | string {
  return locale === 'ar' && ar ? ar : en
}
