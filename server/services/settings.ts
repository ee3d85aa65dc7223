import type { Kysely } from 'kysely'
import type * as v from 'valibot'
import type { Locale } from '../../src/contract/common'
import type { SettingsSchema } from '../../src/contract/console-settings'
import type { ContactInfo } from '../../src/contract/site'
import type { ChargingMethod, PaymentInfoSchema, UsdtNetwork } from '../../src/contract/wallet'
import { fromMicros } from '../../src/domain/money'
import { normalisePhone } from '../../src/domain/phone'
import { bscAddress, tronAddress } from '../adapters/chains/address'
import type { Config } from '../config'
import type { FieldMessages, FieldProblem } from '../core/errors'
import { ValidationError } from '../core/errors'
import type { Database } from '../db/schema'
import type { PaymentSettingsTable } from '../db/schema-wallet'
import { inTransaction } from '../db/transaction'
import { recordAudit } from './audit'
import { getContactInfo } from './site'

/*
 * The store's settings (docs/api.md, Console: Settings): the payment methods, the contact
 * details and the about text. The CLI's `settings:payments` and the console's Settings screen
 * change them through these functions, each change audited with what it was and became.
 */

export type PaymentInfoWire = v.InferInput<typeof PaymentInfoSchema>
export type SettingsWire = v.InferInput<typeof SettingsSchema>
export type PaymentSettings = Omit<PaymentSettingsTable, 'id' | 'updated_at'>
type Contact = { [K in keyof ContactInfo]-?: string | null }

const NO_SETTINGS: PaymentSettings = {
  usdt_trc20: null,
  usdt_bep20: null,
  whish_money_text: null,
  whish_money_text_ar: null,
  omt_pay_text: null,
  omt_pay_text_ar: null,
  usdt_tax: 0,
  whish_money_tax: 0,
  omt_pay_tax: 0,
  usdt_on: 1,
  whish_money_on: 1,
  omt_pay_on: 1,
}

/** How the settings' fields are named in a reply about them (server catalogue). */
export const SETTINGS_FIELDS: Record<string, FieldMessages> = {
  usdt_trc20: {
    label: 'field.usdt_trc20',
    invalid: 'validation.usdt_address',
    values: { network: 'TRC20' },
  },
  usdt_bep20: {
    label: 'field.usdt_bep20',
    invalid: 'validation.usdt_address',
    values: { network: 'BEP20' },
  },
  usdt_tax: { label: 'field.usdt_tax', invalid: 'validation.tax' },
  whish_money_text: { label: 'field.whish_money_text' },
  whish_money_text_ar: { label: 'field.whish_money_text_ar' },
  whish_money_tax: { label: 'field.whish_money_tax', invalid: 'validation.tax' },
  omt_pay_text: { label: 'field.omt_pay_text' },
  omt_pay_text_ar: { label: 'field.omt_pay_text_ar' },
  omt_pay_tax: { label: 'field.omt_pay_tax', invalid: 'validation.tax' },
  email: { label: 'field.email', invalid: 'validation.email.invalid' },
  first_phone_number: { label: 'field.phone_number', invalid: 'validation.phone_number.invalid' },
  second_phone_number: { label: 'field.phone_number', invalid: 'validation.phone_number.invalid' },
  whatsapp: { label: 'field.whatsapp', invalid: 'validation.phone_number.invalid' },
  facebook: { label: 'field.facebook', invalid: 'validation.link' },
  instagram: { label: 'field.instagram', invalid: 'validation.link' },
  tiktok: { label: 'field.tiktok', invalid: 'validation.link' },
  about_us_text_en: { label: 'field.about_us_text_en' },
  about_us_text_ar: { label: 'field.about_us_text_ar' },
}

export async function paymentSettings(db: Kysely<Database>): Promise<PaymentSettings> {
  const row = await db
    .selectFrom('payment_settings')
    .selectAll()
    .where('id', '=', 1)
    .executeTakeFirst()
  if (!row) return NO_SETTINGS
  const { id: _id, updated_at: _at, ...settings } = row
  return settings
}

/** Whether the charging page offers a receipt method: switched on, with its text. */
export function methodOffered(
  settings: PaymentSettings,
  method: Exclude<ChargingMethod, 'USDT' | 'PROMO_CODE'>,
): boolean {
  return method === 'WHISH_MONEY'
    ? settings.whish_money_on === 1 && settings.whish_money_text !== null
    : settings.omt_pay_on === 1 && settings.omt_pay_text !== null
}

/** Only what differs, as it was and as it becomes: the audit's details of a change. */
function changes<T extends Record<string, unknown>>(before: T, after: T) {
  const keys = Object.keys(after).filter((k) => before[k] !== after[k])
  return {
    before: Object.fromEntries(keys.map((k) => [k, before[k]])),
    after: Object.fromEntries(keys.map((k) => [k, after[k]])),
  }
}

/**
 * A USDT address in its network's one spelling (a Tron address with a good checksum, a BSC
 * one in lower case), and a method switched on has what the charging page shows of it;
 * a ValidationError names each field that is not.
 */
function checked(next: PaymentSettings): PaymentSettings {
  const problems: FieldProblem[] = []
  const spell = (network: UsdtNetwork, text: string | null) => {
    if (text === null) return null
    const spelled = network === 'trc20' ? tronAddress(text) : bscAddress(text)
    if (spelled === null)
      problems.push({
        field: `usdt_${network}`,
        id: 'validation.usdt_address',
        values: { network: network.toUpperCase() },
      })
    return spelled ?? text
  }
  const result = {
    ...next,
    usdt_trc20: spell('trc20', next.usdt_trc20),
    usdt_bep20: spell('bep20', next.usdt_bep20),
  }
  if (next.whish_money_on && next.whish_money_text === null)
    problems.push({ field: 'whish_money_text', id: 'validation.required' })
  if (next.omt_pay_on && next.omt_pay_text === null)
    problems.push({ field: 'omt_pay_text', id: 'validation.required' })
  if (problems.length > 0) throw new ValidationError(problems, SETTINGS_FIELDS)
  return result
}

/**
 * Changes some of the payment settings (the others keep their values) and records who did it:
 * one transaction for the row and its audit line.
 */
export async function updatePaymentSettings(
  db: Kysely<Database>,
  patch: Partial<PaymentSettings>,
  { now, actor }: { now: Date; actor: string },
): Promise<PaymentSettings> {
  const at = now.toISOString()
  return inTransaction(db, async (trx) => {
    const current = await paymentSettings(trx)
    const next = checked({ ...current, ...patch })
    await trx
      .insertInto('payment_settings')
      .values({ id: 1, ...next, updated_at: at })
      .onConflict((oc) => oc.column('id').doUpdateSet({ ...next, updated_at: at }))
      .execute()
    await recordAudit(trx, {
      actor,
      action: 'settings:payments',
      details: changes(current, next),
      now,
    })
    return next
  })
}

/** The text of a receipt method in `locale`: the Arabic one when there is one, else English. */
const textIn = (locale: Locale, en: string | null, ar: string | null) =>
  locale === 'ar' ? (ar ?? en) : en

/**
 * GET payments/info: what the charging page offers, in the reader's language. A USDT
 * network's address is the watched one when a watcher is configured (USDT_TRC20_ADDRESS, ...),
 * else the operator's; a method switched off is shown as none.
 */
export function paymentInfoWire(
  settings: PaymentSettings,
  chains: Pick<Config['chains'], UsdtNetwork>,
  locale: Locale,
): PaymentInfoWire {
  const usdt = settings.usdt_on === 1
  return {
    usdt_trc20: usdt ? (chains.trc20?.address ?? settings.usdt_trc20) : null,
    usdt_bep20: usdt ? (chains.bep20?.address ?? settings.usdt_bep20) : null,
    whish_money_text: methodOffered(settings, 'WHISH_MONEY')
      ? textIn(locale, settings.whish_money_text, settings.whish_money_text_ar)
      : null,
    omt_pay_text: methodOffered(settings, 'OMT_PAY')
      ? textIn(locale, settings.omt_pay_text, settings.omt_pay_text_ar)
      : null,
    usdt_tax_percentage: fromMicros(settings.usdt_tax),
    whish_money_tax_percentage: fromMicros(settings.whish_money_tax),
    omt_pay_tax_percentage: fromMicros(settings.omt_pay_tax),
  }
}

/**
 * The contact details the contact page shows; a field left out is cleared. Phone numbers are
 * kept as customers' are (+961…, src/domain/phone.ts).
 */
export async function updateContactInfo(
  db: Kysely<Database>,
  contact: Partial<Contact>,
  { now, actor }: { now: Date; actor: string },
): Promise<Contact> {
  const at = now.toISOString()
  const problems: FieldProblem[] = []
  const phone = (field: 'first_phone_number' | 'second_phone_number' | 'whatsapp') => {
    const text = contact[field]
    if (!text) return null
    const number = normalisePhone(text)
    if (number === null) problems.push({ field, id: 'validation.phone_number.invalid' })
    return number
  }
  const numbers = {
    first_phone_number: phone('first_phone_number'),
    second_phone_number: phone('second_phone_number'),
    whatsapp: phone('whatsapp'),
  }
  if (problems.length > 0) throw new ValidationError(problems, SETTINGS_FIELDS)
  return inTransaction(db, async (trx) => {
    const current = (await getContactInfo(trx)) as Contact
    const next: Contact = {
      email: contact.email ?? null,
      ...numbers,
      facebook: contact.facebook ?? null,
      instagram: contact.instagram ?? null,
      tiktok: contact.tiktok ?? null,
    }
    await trx
      .insertInto('contact_info')
      .values({ id: 1, ...next, updated_at: at })
      .onConflict((oc) => oc.column('id').doUpdateSet({ ...next, updated_at: at }))
      .execute()
    await recordAudit(trx, {
      actor,
      action: 'settings:contact',
      details: changes(current, next),
      now,
    })
    return next
  })
}

export interface SiteTexts {
  about_us_text_en: string
  about_us_text_ar: string
}

async function siteTexts(db: Kysely<Database>): Promise<SiteTexts> {
  const row = await db
    .selectFrom('about_us')
    .select(['text_en', 'text_ar'])
    .where('id', '=', 1)
    .executeTakeFirst()
  return { about_us_text_en: row?.text_en ?? '', about_us_text_ar: row?.text_ar ?? '' }
}

/** The about page's text in each language. */
export async function updateSiteTexts(
  db: Kysely<Database>,
  texts: SiteTexts,
  { now, actor }: { now: Date; actor: string },
): Promise<SiteTexts> {
  const at = now.toISOString()
  return inTransaction(db, async (trx) => {
    const current = await siteTexts(trx)
    const values = { text_en: texts.about_us_text_en, text_ar: texts.about_us_text_ar }
    await trx
      .insertInto('about_us')
      .values({ id: 1, ...values, updated_at: at })
      .onConflict((oc) => oc.column('id').doUpdateSet({ ...values, updated_at: at }))
      .execute()
    await recordAudit(trx, {
      actor,
      action: 'settings:texts',
      details: changes({ ...current }, { ...texts }),
      now,
    })
    return texts
  })
}

/** GET admin/settings: everything the Settings screen edits. */
export async function readSettings(
  db: Kysely<Database>,
  chains: Pick<Config['chains'], UsdtNetwork>,
): Promise<SettingsWire> {
  const [payments, contact, texts] = await Promise.all([
    paymentSettings(db),
    getContactInfo(db),
    siteTexts(db),
  ])
  return {
    payments: {
      usdt_on: payments.usdt_on === 1,
      usdt_trc20: payments.usdt_trc20,
      usdt_bep20: payments.usdt_bep20,
      usdt_tax_percentage: fromMicros(payments.usdt_tax),
      whish_money_on: payments.whish_money_on === 1,
      whish_money_text: payments.whish_money_text,
      whish_money_text_ar: payments.whish_money_text_ar,
      whish_money_tax_percentage: fromMicros(payments.whish_money_tax),
      omt_pay_on: payments.omt_pay_on === 1,
      omt_pay_text: payments.omt_pay_text,
      omt_pay_text_ar: payments.omt_pay_text_ar,
      omt_pay_tax_percentage: fromMicros(payments.omt_pay_tax),
      watched_trc20: chains.trc20?.address ?? null,
      watched_bep20: chains.bep20?.address ?? null,
    },
    contact: contact as Contact,
    texts,
  }
}
