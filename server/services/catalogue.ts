import { sql, type Kysely } from 'kysely'
import * as v from 'valibot'
import {
  ProductNumberSchema,
  type ProductNumber,
  type AdditionalServiceSchema,
  type GroupListReplySchema,
  type GroupReplySchema,
  type PackageDetailSchema,
  type PackageSchema,
  type ProductDetailSchema,
  type ProductSummarySchema,
} from '../../src/contract/catalogue'
import type { Locale, Wire } from '../../src/contract/common'
import { fromMicros } from '../../src/domain/money'
import type { Database } from '../db/schema'
import type { AdditionalServiceRow, PackageRow, ProductRow } from '../db/schema-catalogue'
import { mapPage, queryPage, type Page, type PageRequest } from '../core/paging'
import { localized } from '../i18n'
import { generatedImageUrl, type ImageKind, type ImageSubject } from './catalogue-images'
import {
  isProductAvailable,
  parseRequirements,
  purchaseFields,
  type PurchaseFields,
} from './purchase-terms'

/*
 * The catalogue as the storefront reads it (docs/api.md, Catalogue). Replies are the wire
 * form: flags 0/1, money as decimal numbers, requirements and player_numbers as JSON text,
 * names and notes in the request's language.
 */

export type ProductSummaryWire = Wire<typeof ProductSummarySchema>
export type ProductDetailWire = Wire<typeof ProductDetailSchema>
export type PackageWire = Wire<typeof PackageSchema>
export type PackageDetailWire = Wire<typeof PackageDetailSchema>
export type GroupWire = Wire<typeof GroupReplySchema>['data']
export type GroupListWire = Wire<typeof GroupListReplySchema>
type AdditionalServiceWire = Wire<typeof AdditionalServiceSchema>

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

export const escapeLike = (text: string) => text.replace(/[\\%_]/g, (ch) => `\\${ch}`)

/** The database keeps numbers 1 to 7 (a check constraint); the type says so too. */
const productNumber = (n: number): ProductNumber => v.parse(ProductNumberSchema, n)

const flag = (value: boolean | number | null | undefined): 0 | 1 => (value ? 1 : 0)
const money = (micros: number | null) => (micros === null ? null : fromMicros(micros))

/** The storefront's requirements: a JSON string of {name, label} in the request's language. */
function requirementsWire(json: string, locale: Locale): string {
  return JSON.stringify(
    parseRequirements(json).map((r) => ({
      name: r.name,
      label: localized(locale, r.label_en, r.label_ar),
    })),
  )
}

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
    number: productNumber(p.number),
    name: localized(locale, p.name_en, p.name_ar),
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
  const page = await queryPage(query, request, (q) =>
    q.select(summaryColumns).orderBy('position').orderBy('id'),
  )
  return mapPage(page, (r) => summary(r, locale))
}

function additionalService(
  row: AdditionalServiceRow,
  locale: Locale,
): AdditionalServiceWire & { id: number } {
  return {
    id: row.id,
    type: row.type,
    minimum_qut: row.minimum_qut,
    minimum_qut_note: localized(locale, row.minimum_qut_note_en, row.minimum_qut_note_ar),
    note: localized(locale, row.note_en, row.note_ar),
    company_price: fromMicros(row.company_price),
    product_percentage: fromMicros(row.product_percentage),
  }
}

/** An item's purchase fields (its own, or a package's over its product's), in the wire form. */
function purchaseWire(fields: PurchaseFields, product: ProductRow, locale: Locale) {
  return {
    note: localized(locale, fields.note_en, fields.note_ar),
    minimum_qut: fields.minimum_qut,
    maximum_qut: fields.maximum_qut,
    minimum_qut_note: localized(locale, fields.minimum_qut_note_en, fields.minimum_qut_note_ar),
    is_available: flag(product.is_available),
    force_unavailable: flag(product.force_unavailable),
    company_price: fromMicros(fields.company_price),
    sec_company_price: money(fields.sec_company_price),
    company_percentage: fromMicros(fields.company_percentage),
    product_percentage: fromMicros(fields.product_percentage),
    product_reference: product.product_reference,
    requirements: requirementsWire(fields.requirements, locale),
    require_player_number: flag(fields.require_player_number),
    th_party_api_id: fields.th_party_api_id,
    th_party_as7ab_api: fields.th_party_as7ab_api,
    player_numbers: fields.player_numbers,
    is_tiktok: flag(fields.is_tiktok),
    account_login: flag(fields.account_login),
    pkey: fields.pkey,
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
  const [group, images, services] = await Promise.all([
    p.group_id === null
      ? undefined
      : db
          .selectFrom('product_groups')
          .select(['name_en', 'name_ar'])
          .where('id', '=', p.group_id)
          .executeTakeFirst(),
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
    number: productNumber(p.number),
    name: localized(locale, p.name_en, p.name_ar),
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
    group_name: group ? localized(locale, group.name_en, group.name_ar) : null,
    ...purchaseWire(purchaseFields(p), p, locale),
    product_additional_services: services.map((s) => additionalService(s, locale)),
  }
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
    name: localized(locale, pkg.name_en, pkg.name_ar),
    image: packageImage(pkg, product),
    number: productNumber((pkg.merge_to !== null ? target?.number : undefined) ?? product.number),
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
  const page = await queryPage(query, request, (q) =>
    q.selectAll().orderBy('position').orderBy('id'),
  )
  const targets = await mergeTargets(db, page.data)
  return mapPage(page, (pkg) => packageEntry(pkg, product, targets.get(pkg.merge_to ?? -1), locale))
}

/** GET products/groups: the groups that hold products, in the store's order. */
export async function listGroups(db: Kysely<Database>, locale: Locale): Promise<GroupListWire> {
  const groups = await db
    .selectFrom('product_groups')
    .innerJoin('products', 'products.group_id', 'product_groups.id')
    .select(({ fn }) => [
      'product_groups.id',
      'product_groups.name_en',
      'product_groups.name_ar',
      'product_groups.image',
      'product_groups.position',
      fn.countAll<number | string>().as('products_count'),
    ])
    .groupBy([
      'product_groups.id',
      'product_groups.name_en',
      'product_groups.name_ar',
      'product_groups.image',
      'product_groups.position',
    ])
    .orderBy('product_groups.position')
    .orderBy('product_groups.id')
    .execute()
  return {
    data: groups.map((group) => ({
      id: group.id,
      name: localized(locale, group.name_en, group.name_ar),
      image:
        group.image ??
        generatedImageUrl({ kind: 'group', id: group.id, number: 0, ...names(group) }),
      products_count: Number(group.products_count),
    })),
  }
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
    name: localized(locale, group.name_en, group.name_ar),
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
 * client that checks "is_available 0 or force_unavailable 1" gets it right; `available` is
 * the combined answer.
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
  return {
    ...purchaseWire(purchaseFields(product, pkg), product, locale),
    ...packageEntry(pkg, product, targets.get(pkg.merge_to ?? -1), locale),
    is_available: flag(pkg.is_available),
    force_unavailable: flag(!isProductAvailable(product)),
    istoken: flag(product.istoken),
    product_id: product.id,
    product_name: localized(locale, product.name_en, product.name_ar),
  }
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
