import type { Kysely } from 'kysely'
import type * as v from 'valibot'
import type { Locale } from '../../src/contract/common'
import type { SettingsSchema } from '../../src/contract/console-settings'
import type { ContactInfo } from '../../src/contract/site'
import {
  perKey,
  RECEIPT_METHOD_ENTRIES,
  receiptKeys,
  SET_METHOD_ENTRIES,
  setKeys,
  type ReceiptKey,
  type ReceiptMethodEntry,
  type SetMethodKey,
} from '../../src/contract/payment-methods'
import type { PaymentInfoSchema, UsdtNetwork } from '../../src/contract/wallet'
import { fromMicros } from '../../src/domain/money'
import { normalisePhone } from '../../src/domain/phone'
import { bscAddress, tronAddress } from '../adapters/chains/address'
import type { Config } from '../config'
import type { FieldMessages, FieldProblem } from '../core/errors'
import { ValidationError } from '../core/errors'
import type { Database } from '../db/schema'
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
/**
 * The payment settings as one record, named as the console's form and the CLI name them: the
 * USDT addresses, each method's `<key>_on` (1 or 0) and `<key>_tax` (millionths of a
 * percent), each receipt method's `<key>_text` and `<key>_text_ar`. Stored as a row per
 * method (payment_methods) and the addresses (payment_settings).
 */
export type PaymentSettings = { usdt_trc20: string | null; usdt_bep20: string | null } & Record<
  `${SetMethodKey}_on` | `${SetMethodKey}_tax`,
  number
> &
  Record<`${ReceiptKey}_text` | `${ReceiptKey}_text_ar`, string | null>
type Contact = { [K in keyof ContactInfo]-?: string | null }

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
  ...perKey(setKeys('_tax'), (key) => ({ label: `field.${key}`, invalid: 'validation.tax' })),
  ...perKey(receiptKeys('_text'), (key) => ({ label: `field.${key}` })),
  ...perKey(receiptKeys('_text_ar'), (key) => ({ label: `field.${key}` })),
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
  const [addresses, rows] = await Promise.all([
    db
      .selectFrom('payment_settings')
      .select(['usdt_trc20', 'usdt_bep20'])
      .where('id', '=', 1)
      .executeTakeFirst(),
    db.selectFrom('payment_methods').selectAll().execute(),
  ])
  // A method never set is off, untaxed, with no texts.
  const row = (method: string) => rows.find((r) => r.method === method)
  const settings: Record<string, string | number | null> = {
    usdt_trc20: addresses?.usdt_trc20 ?? null,
    usdt_bep20: addresses?.usdt_bep20 ?? null,
  }
  for (const m of SET_METHOD_ENTRIES) {
    settings[`${m.key}_on`] = row(m.id)?.offered ?? 0
    settings[`${m.key}_tax`] = row(m.id)?.tax ?? 0
  }
  for (const m of RECEIPT_METHOD_ENTRIES) {
    settings[`${m.key}_text`] = row(m.id)?.text ?? null
    settings[`${m.key}_text_ar`] = row(m.id)?.text_ar ?? null
  }
  return settings as PaymentSettings
}

/** Whether the charging page offers a receipt method: switched on, with its text. */
export function methodOffered(settings: PaymentSettings, method: ReceiptMethodEntry): boolean {
  return settings[`${method.key}_on`] === 1 && settings[`${method.key}_text`] !== null
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
  for (const { key } of RECEIPT_METHOD_ENTRIES)
    if (next[`${key}_on`] && next[`${key}_text`] === null)
      problems.push({ field: `${key}_text`, id: 'validation.required' })
  if (problems.length > 0) throw new ValidationError(problems, SETTINGS_FIELDS)
  return result
}

/** Writes all the payment settings: the addresses' row and a row per method. */
export async function storePaymentSettings(
  trx: Kysely<Database>,
  next: PaymentSettings,
  at: string,
) {
  const addresses = { usdt_trc20: next.usdt_trc20, usdt_bep20: next.usdt_bep20 }
  await trx
    .insertInto('payment_settings')
    .values({ id: 1, ...addresses, updated_at: at })
    .onConflict((oc) => oc.column('id').doUpdateSet({ ...addresses, updated_at: at }))
    .execute()
  for (const m of SET_METHOD_ENTRIES) {
    const texts = m.kind === 'receipt' ? m.key : null
    const row = {
      offered: next[`${m.key}_on`],
      tax: next[`${m.key}_tax`],
      text: texts && next[`${texts}_text`],
      text_ar: texts && next[`${texts}_text_ar`],
      updated_at: at,
    }
    await trx
      .insertInto('payment_methods')
      .values({ method: m.id, ...row })
      .onConflict((oc) => oc.column('method').doUpdateSet(row))
      .execute()
  }
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
    await storePaymentSettings(trx, next, at)
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
    ...perKey(receiptKeys('_text'), (key) => {
      const method = RECEIPT_METHOD_ENTRIES.find((m) => `${m.key}_text` === key)!
      return methodOffered(settings, method)
        ? textIn(locale, settings[key], settings[`${method.key}_text_ar`])
        : null
    }),
    ...taxPercentages(settings),
  }
}

/** Each method's tax as a percentage (`<key>_tax_percentage`), as replies give it. */
export const taxPercentages = (settings: PaymentSettings) =>
  perKey(setKeys('_tax_percentage'), (key) =>
    fromMicros(settings[key.replace(/_percentage$/, '') as `${SetMethodKey}_tax`]),
  )

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
      usdt_trc20: payments.usdt_trc20,
      usdt_bep20: payments.usdt_bep20,
      ...perKey(setKeys('_on'), (key) => payments[key] === 1),
      ...taxPercentages(payments),
      ...perKey(receiptKeys('_text'), (key) => payments[key]),
      ...perKey(receiptKeys('_text_ar'), (key) => payments[key]),
      watched_trc20: chains.trc20?.address ?? null,
      watched_bep20: chains.bep20?.address ?? null,
    },
    contact: contact as Contact,
    texts,
  }
}
