import type { Locale } from '../../src/contract/common'
import { fromMicros } from '../../src/domain/money'
import type { PurchaseTerms } from '../../src/domain/ordering'
import type { PriceInput } from '../../src/domain/pricing'
import type { AdditionalServiceRow, PackageRow, ProductRow } from '../db/schema-catalogue'
import { localized } from '../i18n'

/** A stored requirement: the field's name and its label in both languages. */
export interface StoredRequirement {
  name: string
  label_en: string
  label_ar: string
}

export function parseRequirements(json: string): StoredRequirement[] {
  try {
    const parsed: unknown = JSON.parse(json)
    return Array.isArray(parsed) ? (parsed as StoredRequirement[]) : []
  } catch {
    return []
  }
}

/** A requirement field's answer, kept with its labels: the catalogue may change later. */
export type StoredAnswer = StoredRequirement & { value: string }

/**
 * The answers as stored: a list with labels, or (orders placed before labels were kept) an
 * object of name to value.
 */
export function storedAnswers(json: string): StoredAnswer[] {
  let parsed: unknown
  try {
    parsed = JSON.parse(json)
  } catch {
    return []
  }
  if (Array.isArray(parsed)) return parsed as StoredAnswer[]
  if (typeof parsed !== 'object' || parsed === null) return []
  return Object.entries(parsed as Record<string, string>).map(([name, value]) => ({
    name,
    label_en: name,
    label_ar: name,
    value,
  }))
}

/** The requirement fields with their labels in the customer's language. */
export const requirementsIn = (json: string, locale: Locale) =>
  parseRequirements(json).map((r) => ({
    name: r.name,
    label: localized(locale, r.label_en, r.label_ar),
  }))

export const isProductAvailable = (p: Pick<ProductRow, 'is_available' | 'force_unavailable'>) =>
  p.is_available === 1 && p.force_unavailable === 0

/**
 * What an item is bought on: a product's own purchase fields, or a package's, each of which
 * (where set) overrides its product's. The one place that rule is written: the package page
 * shows these and checkout enforces them.
 */
export function purchaseFields(product: ProductRow, pkg?: PackageRow) {
  const own = <T>(value: T | null | undefined, fallback: T): T =>
    value === null || value === undefined ? fallback : value
  // A text and its translation come from the same row.
  const text = (
    pkgEn: string | null | undefined,
    pkgAr: string | null | undefined,
    en: string | null,
    ar: string | null,
  ) => (pkgEn === null || pkgEn === undefined ? { en, ar } : { en: pkgEn, ar: pkgAr ?? null })
  const note = text(pkg?.note_en, pkg?.note_ar, product.note_en, product.note_ar)
  const minimumNote = text(
    pkg?.minimum_qut_note_en,
    pkg?.minimum_qut_note_ar,
    product.minimum_qut_note_en,
    product.minimum_qut_note_ar,
  )
  return {
    note_en: note.en,
    note_ar: note.ar,
    minimum_qut: own(pkg?.minimum_qut, product.minimum_qut),
    maximum_qut: own(pkg?.maximum_qut, product.maximum_qut),
    minimum_qut_note_en: minimumNote.en,
    minimum_qut_note_ar: minimumNote.ar,
    requirements: own(pkg?.requirements, product.requirements),
    require_player_number: own(pkg?.require_player_number, product.require_player_number),
    th_party_api_id: own(pkg?.th_party_api_id, product.th_party_api_id),
    th_party_as7ab_api: product.th_party_as7ab_api,
    player_numbers: product.player_numbers,
    is_tiktok: own(pkg?.is_tiktok, product.is_tiktok),
    account_login: own(pkg?.account_login, product.account_login),
    pkey: own(pkg?.pkey, product.pkey),
    // A package has its own price; only a product bought directly has a second price.
    company_price: pkg ? pkg.company_price : product.company_price,
    sec_company_price: pkg ? null : product.sec_company_price,
    company_percentage: pkg ? pkg.company_percentage : product.company_percentage,
    product_percentage: pkg ? pkg.product_percentage : product.product_percentage,
  }
}
export type PurchaseFields = ReturnType<typeof purchaseFields>

/** The order form's rules of an item (see src/domain/ordering.ts), in the customer's language. */
export function purchaseTerms(
  product: ProductRow,
  pkg: PackageRow | undefined,
  services: AdditionalServiceRow[],
  locale: Locale,
): PurchaseTerms {
  const fields = purchaseFields(product, pkg)
  return {
    target: pkg ? 'package' : 'product',
    number: product.number,
    minimum: fields.minimum_qut,
    maximum: fields.maximum_qut,
    requirements: requirementsIn(fields.requirements, locale),
    requirePlayerNumber: fields.require_player_number === 1,
    thirdPartyApiId: fields.th_party_api_id,
    thirdPartyAs7abApi: fields.th_party_as7ab_api,
    isTiktok: fields.is_tiktok === 1,
    accountLogin: fields.account_login === 1,
    pkey: fields.pkey,
    hasSecondPrice: fields.sec_company_price !== null,
    services: pkg ? [] : services.map((s) => ({ type: s.type, minimum: s.minimum_qut })),
  }
}

/** Catalogue percentages are micro-units of a percent; the pricing rule takes decimals. */
const percent = (micros: number | null | undefined) => (micros ? fromMicros(micros) : 0)

/** What the pricing rule needs of an item, or of the social service chosen on its form. */
export function priceInput(
  product: ProductRow,
  pkg: PackageRow | undefined,
  service: AdditionalServiceRow | undefined,
): PriceInput {
  if (service)
    return {
      companyPrice: BigInt(service.company_price),
      productPercentage: percent(service.product_percentage),
      companyPercentage: percent(product.company_percentage),
      number: product.number,
    }
  const fields = purchaseFields(product, pkg)
  return {
    companyPrice: BigInt(fields.company_price),
    secCompanyPrice: fields.sec_company_price === null ? null : BigInt(fields.sec_company_price),
    companyPercentage: percent(fields.company_percentage),
    productPercentage: percent(fields.product_percentage),
    number: product.number,
  }
}
