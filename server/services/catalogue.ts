import { sql, type Kysely } from 'kysely'
import type * as v from 'valibot'
import type { Locale } from '../../src/contract/common'
import {
  MAX_PER_PAGE,
  PAGE_STEP,
  type AdditionalServiceSchema,
  type GroupReplySchema,
  type PackageDetailSchema,
  type PackageSchema,
  type ProductDetailSchema,
  type ProductSummarySchema,
} from '../../src/contract/catalogue'
import { fromMicros } from '../../src/domain/money'
import type { Database } from '../db/schema'
import type { AdditionalServiceRow, PackageRow, ProductRow } from '../db/schema-catalogue'
import { generatedImageUrl, type ImageKind, type ImageSubject } from './catalogue-images'

/*
 * The catalogue as the storefront reads it (spec sections 3 and 7). Replies are the wire
 * form: flags 0/1, money as decimal numbers, requirements and player_numbers as JSON text,
 * names and notes in the request's language.
 */

type Wire<S extends v.GenericSchema> = v.InferInput<S>
export type ProductSummaryWire = Wire<typeof ProductSummarySchema>
export type ProductDetailWire = Wire<typeof ProductDetailSchema>
export type PackageWire = Wire<typeof PackageSchema>
export type PackageDetailWire = Wire<typeof PackageDetailSchema>
export type GroupWire = Wire<typeof GroupReplySchema>['data']
type AdditionalServiceWire = Wire<typeof AdditionalServiceSchema>

export interface Page<T> {
  data: T[]
  total: number
  per_page: number
  current_page: number
  last_page: number
}

export interface PageRequest {
  page: number
  perPage: number
}

/** A stored requirement: the field's name and its label in both languages. */
export interface StoredRequirement {
  name: string
  label_en: string
  label_ar: string
}

const positiveInt = (value: string | undefined): number | undefined =>
  value !== undefined && /^\d{1,9}$/.test(value.trim()) && Number(value) > 0
    ? Number(value)
    : undefined

/**
 * page and per_page as Laravel reads them: anything unusable falls back to the default
 * (page 1, 15 a page) and per_page is capped at 300, the most the home grid grows to.
 */
export function pageRequest(query: { page?: string; per_page?: string }): PageRequest {
  return {
    page: positiveInt(query.page) ?? 1,
    perPage: Math.min(positiveInt(query.per_page) ?? PAGE_STEP, MAX_PER_PAGE),
  }
}

function pageOf<T>(data: T[], total: number, { page, perPage }: PageRequest): Page<T> {
  return {
    data,
    total,
    per_page: perPage,
    current_page: page,
    last_page: Math.max(1, Math.ceil(total / perPage)),
  }
}

/**
 * What search compares: lower case, accents and Arabic short vowels dropped, hamza seats,
 * alef forms, alef maqsura and ta marbuta folded, so "ببجي" finds "بَبجي" and "Pokemon"
 * finds "Pokémon". Names are stored folded (`search_text`) and the query is folded the
 * same way, so both databases compare plain text.
 */
export function searchKey(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/\u0640/g, '') // tatweel
    .replace(/\u0671/g, '\u0627') // alef wasla
    .replace(/\u0649/g, '\u064a') // alef maqsura -> ya
    .replace(/\u0629/g, '\u0647') // ta marbuta -> ha
    .toLowerCase()
    .normalize('NFC')
    .replace(/\s+/g, ' ')
    .trim()
}

export const productSearchText = (nameEn: string, nameAr: string) =>
  `${searchKey(nameEn)}\n${searchKey(nameAr)}`

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (ch) => `\\${ch}`)

const flag = (value: boolean | number | null | undefined): 0 | 1 => (value ? 1 : 0)
const money = (micros: number | null) => (micros === null ? null : fromMicros(micros))
const pick = (locale: Locale, en: string | null, ar: string | null) =>
  locale === 'ar' ? (ar ?? en) : en

export function parseRequirements(json: string): StoredRequirement[] {
  try {
    const parsed: unknown = JSON.parse(json)
    return Array.isArray(parsed) ? (parsed as StoredRequirement[]) : []
  } catch {
    return []
  }
}

/** The storefront's requirements: a JSON string of {name, label} in the request's language. */
function requirementsWire(json: string, locale: Locale): string {
  return JSON.stringify(
    parseRequirements(json).map((r) => ({
      name: r.name,
      label: locale === 'ar' ? r.label_ar || r.label_en : r.label_en,
    })),
  )
}

const isProductAvailable = (p: Pick<ProductRow, 'is_available' | 'force_unavailable'>) =>
  p.is_available === 1 && p.force_unavailable === 0

function productImage(p: Pick<ProductRow, 'id' | 'number' | 'name_en' | 'name_ar' | 'image'>) {
  return p.image ?? generatedImageUrl({ kind: 'product', ...p })
}

const summaryColumns = [
  'id',
  'number',
  'name_en',
  'name_ar',
  'image',
  'is_available',
  'force_unavailable',
] as const
type SummaryRow = Pick<ProductRow, (typeof summaryColumns)[number]>

function summary(p: SummaryRow, locale: Locale): ProductSummaryWire {
  return {
    id: p.id,
    number: p.number as ProductSummaryWire['number'],
    name: pick(locale, p.name_en, p.name_ar)!,
    image: productImage(p),
    available: flag(isProductAvailable(p)),
  }
}

/** GET products (optionally ?search=): one page of summaries in the store's order. */
export async function listProducts(
  db: Kysely<Database>,
  locale: Locale,
  request: PageRequest,
  search = '',
): Promise<Page<ProductSummaryWire>> {
  const key = searchKey(search)
  let query = db.selectFrom('products')
  if (key) {
    query = query.where(sql<boolean>`search_text like ${`%${escapeLike(key)}%`} escape '\\'`)
  }
  const [{ total }] = (await query
    .select((eb) => eb.fn.countAll<number>().as('total'))
    .execute()) as [{ total: number | string }]
  const rows = await query
    .select(summaryColumns)
    .orderBy('position')
    .orderBy('id')
    .limit(request.perPage)
    .offset((request.page - 1) * request.perPage)
    .execute()
  return pageOf(
    rows.map((r) => summary(r, locale)),
    Number(total),
    request,
  )
}

function additionalService(
  row: AdditionalServiceRow,
  locale: Locale,
): AdditionalServiceWire & { id: number } {
  return {
    id: row.id,
    type: row.type,
    minimum_qut: row.minimum_qut,
    minimum_qut_note: pick(locale, row.minimum_qut_note_en, row.minimum_qut_note_ar),
    note: pick(locale, row.note_en, row.note_ar),
    company_price: fromMicros(row.company_price),
    product_percentage: fromMicros(row.product_percentage),
  }
}

/** The purchase fields of a product, in the wire form. */
function productPurchaseFields(p: ProductRow, locale: Locale) {
  return {
    note: pick(locale, p.note_en, p.note_ar),
    minimum_qut: p.minimum_qut,
    maximum_qut: p.maximum_qut,
    minimum_qut_note: pick(locale, p.minimum_qut_note_en, p.minimum_qut_note_ar),
    is_available: flag(p.is_available),
    force_unavailable: flag(p.force_unavailable),
    company_price: fromMicros(p.company_price),
    sec_company_price: money(p.sec_company_price),
    company_percentage: fromMicros(p.company_percentage),
    product_percentage: fromMicros(p.product_percentage),
    product_reference: p.product_reference,
    requirements: requirementsWire(p.requirements, locale),
    require_player_number: flag(p.require_player_number),
    th_party_api_id: p.th_party_api_id,
    th_party_as7ab_api: p.th_party_as7ab_api,
    player_numbers: p.player_numbers,
    is_tiktok: flag(p.is_tiktok),
    pkey: p.pkey,
  }
}

/** GET products/{id}: undefined when there is no such product. */
export async function getProductDetail(
  db: Kysely<Database>,
  locale: Locale,
  id: number,
): Promise<ProductDetailWire | undefined> {
  const p = await db.selectFrom('products').selectAll().where('id', '=', id).executeTakeFirst()
  if (!p) return undefined
  const [images, services] = await Promise.all([
    db
      .selectFrom('product_images')
      .select(['id', 'image', 'position'])
      .where('product_id', '=', id)
      .orderBy('position')
      .orderBy('id')
      .execute(),
    db
      .selectFrom('product_additional_services')
      .selectAll()
      .where('product_id', '=', id)
      .orderBy('position')
      .orderBy('id')
      .execute(),
  ])
  return {
    id: p.id,
    number: p.number as ProductDetailWire['number'],
    name: pick(locale, p.name_en, p.name_ar)!,
    image: productImage(p),
    images: images.map((img, index) => ({
      id: img.id,
      image:
        img.image ??
        generatedImageUrl({
          kind: 'gallery',
          id: img.id,
          number: p.number,
          name_en: p.name_en,
          name_ar: p.name_ar,
          index,
        }),
    })),
    istoken: flag(p.istoken),
    available: flag(isProductAvailable(p)),
    group_id: p.group_id,
    ...productPurchaseFields(p, locale),
    product_additional_services: services.map((s) => additionalService(s, locale)),
  } as ProductDetailWire
}

type ProductForPackage = Pick<
  ProductRow,
  'id' | 'number' | 'name_en' | 'name_ar' | 'is_available' | 'force_unavailable'
>

function packageImage(pkg: PackageRow, product: ProductForPackage) {
  return (
    pkg.image ??
    generatedImageUrl({
      kind: 'package',
      id: pkg.id,
      number: product.number,
      name_en: pkg.name_en,
      name_ar: pkg.name_ar,
    })
  )
}

/**
 * An entry of a package list. An entry that merges to another product takes that product's
 * number (the storefront links to /products/products-{number}/{merge_to}) and is available
 * only while that product is.
 */
function packageEntry(
  pkg: PackageRow,
  product: ProductForPackage,
  target: ProductForPackage | undefined,
  locale: Locale,
): PackageWire {
  const available =
    pkg.is_available === 1 &&
    isProductAvailable(product) &&
    (pkg.merge_to === null || (target !== undefined && isProductAvailable(target)))
  return {
    id: pkg.id,
    name: pick(locale, pkg.name_en, pkg.name_ar)!,
    image: packageImage(pkg, product),
    number: ((pkg.merge_to !== null ? target?.number : undefined) ??
      product.number) as PackageWire['number'],
    type: pkg.type,
    merge_to: pkg.merge_to,
    available: flag(available),
    is_available: flag(pkg.is_available),
    company_price: fromMicros(pkg.company_price),
    company_percentage: fromMicros(pkg.company_percentage),
    product_percentage: fromMicros(pkg.product_percentage),
    package_id: pkg.package_id,
  }
}

const productForPackageColumns = [
  'id',
  'number',
  'name_en',
  'name_ar',
  'is_available',
  'force_unavailable',
] as const

async function mergeTargets(db: Kysely<Database>, packages: PackageRow[]) {
  const ids = [...new Set(packages.map((p) => p.merge_to).filter((id) => id !== null))]
  if (ids.length === 0) return new Map<number, ProductForPackage>()
  const rows = await db
    .selectFrom('products')
    .select(productForPackageColumns)
    .where('id', 'in', ids)
    .execute()
  return new Map(rows.map((r) => [r.id, r]))
}

/** GET products/{id}/packages: undefined when there is no such product. */
export async function listPackages(
  db: Kysely<Database>,
  locale: Locale,
  productId: number,
  request: PageRequest,
): Promise<Page<PackageWire> | undefined> {
  const product = await db
    .selectFrom('products')
    .select(productForPackageColumns)
    .where('id', '=', productId)
    .executeTakeFirst()
  if (!product) return undefined
  const query = db.selectFrom('packages').where('product_id', '=', productId)
  const [{ total }] = (await query
    .select((eb) => eb.fn.countAll<number>().as('total'))
    .execute()) as [{ total: number | string }]
  const rows = await query
    .selectAll()
    .orderBy('position')
    .orderBy('id')
    .limit(request.perPage)
    .offset((request.page - 1) * request.perPage)
    .execute()
  const targets = await mergeTargets(db, rows)
  return pageOf(
    rows.map((pkg) => packageEntry(pkg, product, targets.get(pkg.merge_to ?? -1), locale)),
    Number(total),
    request,
  )
}

/** GET products/by-group/{id}: the group and all its products, in the store's order. */
export async function getGroup(
  db: Kysely<Database>,
  locale: Locale,
  id: number,
): Promise<GroupWire | undefined> {
  const group = await db
    .selectFrom('product_groups')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirst()
  if (!group) return undefined
  const products = await db
    .selectFrom('products')
    .select(summaryColumns)
    .where('group_id', '=', id)
    .orderBy('position')
    .orderBy('id')
    .execute()
  return {
    id: group.id,
    name: pick(locale, group.name_en, group.name_ar)!,
    image:
      group.image ?? generatedImageUrl({ kind: 'group', id: group.id, number: 0, ...names(group) }),
    products: products.map((p) => summary(p, locale)),
  }
}

const names = (row: { name_en: string; name_ar: string }) => ({
  name_en: row.name_en,
  name_ar: row.name_ar,
})

/**
 * GET products/packages/{id}: the entry plus what its purchase form needs, each field the
 * package's own when set, else the product's. `is_available` is the package's own flag;
 * `force_unavailable` is 1 when the product cannot be bought (unavailable or forced), so a
 * client that checks "is_available 0 or force_unavailable 1" (spec section 4) gets it right;
 * `available` is the combined answer.
 */
export async function getPackageDetail(
  db: Kysely<Database>,
  locale: Locale,
  id: number,
): Promise<PackageDetailWire | undefined> {
  const pkg = await db.selectFrom('packages').selectAll().where('id', '=', id).executeTakeFirst()
  if (!pkg) return undefined
  const product = await db
    .selectFrom('products')
    .selectAll()
    .where('id', '=', pkg.product_id)
    .executeTakeFirstOrThrow()
  const targets = await mergeTargets(db, [pkg])
  const entry = packageEntry(pkg, product, targets.get(pkg.merge_to ?? -1), locale)
  const inherited = productPurchaseFields(product, locale)
  const own = <T>(value: T | null, fallback: T) => (value === null ? fallback : value)
  return {
    ...inherited,
    ...entry,
    note: pick(locale, pkg.note_en, pkg.note_ar) ?? inherited.note,
    minimum_qut: own(pkg.minimum_qut, inherited.minimum_qut),
    maximum_qut: own(pkg.maximum_qut, inherited.maximum_qut),
    minimum_qut_note:
      pick(locale, pkg.minimum_qut_note_en, pkg.minimum_qut_note_ar) ?? inherited.minimum_qut_note,
    is_available: flag(pkg.is_available),
    force_unavailable: flag(!isProductAvailable(product)),
    requirements:
      pkg.requirements === null
        ? inherited.requirements
        : requirementsWire(pkg.requirements, locale),
    require_player_number: flag(own(pkg.require_player_number, product.require_player_number)),
    th_party_api_id: own(pkg.th_party_api_id, inherited.th_party_api_id),
    is_tiktok: flag(own(pkg.is_tiktok, product.is_tiktok)),
    pkey: own(pkg.pkey, inherited.pkey),
    istoken: flag(product.istoken),
    product_id: product.id,
    product_name: pick(locale, product.name_en, product.name_ar)!,
  } as PackageDetailWire
}

/** Who a generated picture shows, for the media route; undefined when the row is gone. */
export async function findImageSubject(
  db: Kysely<Database>,
  kind: ImageKind,
  id: number,
): Promise<ImageSubject | undefined> {
  switch (kind) {
    case 'product': {
      const p = await db
        .selectFrom('products')
        .select(['id', 'number', 'name_en', 'name_ar'])
        .where('id', '=', id)
        .executeTakeFirst()
      return p && { kind, ...p }
    }
    case 'package': {
      const row = await db
        .selectFrom('packages')
        .innerJoin('products', 'products.id', 'packages.product_id')
        .select(['packages.id', 'products.number', 'packages.name_en', 'packages.name_ar'])
        .where('packages.id', '=', id)
        .executeTakeFirst()
      return row && { kind, ...row }
    }
    case 'group': {
      const g = await db
        .selectFrom('product_groups')
        .select(['id', 'name_en', 'name_ar'])
        .where('id', '=', id)
        .executeTakeFirst()
      return g && { kind, number: 0, ...g }
    }
    case 'gallery': {
      const img = await db
        .selectFrom('product_images')
        .innerJoin('products', 'products.id', 'product_images.product_id')
        .select([
          'product_images.id',
          'product_images.product_id',
          'products.number',
          'products.name_en',
          'products.name_ar',
        ])
        .where('product_images.id', '=', id)
        .executeTakeFirst()
      if (!img) return undefined
      // The gallery index is the picture's place among its product's pictures.
      const siblings = await db
        .selectFrom('product_images')
        .select('id')
        .where('product_id', '=', img.product_id)
        .orderBy('position')
        .orderBy('id')
        .execute()
      return {
        kind,
        id: img.id,
        number: img.number,
        name_en: img.name_en,
        name_ar: img.name_ar,
        index: siblings.findIndex((s) => s.id === img.id),
      }
    }
  }
}
