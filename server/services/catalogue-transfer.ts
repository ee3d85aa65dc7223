import { PostgresAdapter, sql, type Kysely, type Transaction } from 'kysely'
import type { ProductNumber } from '../../src/contract/catalogue'
import { MICROS } from '../../src/domain/money'
import type { Database } from '../db/schema'
import { recordAudit } from './audit'
import { productSearchText } from './catalogue'
import { byProduct, catalogueInOrder } from './catalogue-rows'
import {
  CATALOGUE_FORMAT,
  CATALOGUE_SEED_META_KEY,
  CATALOGUE_VERSION,
  type Catalogue,
  type CatalogueFileInput,
} from './catalogue-file'
import { parseRequirements, type StoredRequirement } from './purchase-terms'

/*
 * The catalogue in and out of the database (`catalogue:export`, `catalogue:import`, the demo's
 * seed), as the document catalogue-file.ts describes and checks.
 */

/** Micro-units to the shortest exact decimal text: 1250000 -> "1.25", 5000000 -> "5". */
export function decimalText(micros: number): string {
  const value = BigInt(micros)
  const sign = value < 0n ? '-' : ''
  const abs = value < 0n ? -value : value
  const whole = abs / BigInt(MICROS)
  const fraction = (abs % BigInt(MICROS)).toString().padStart(6, '0').replace(/0+$/, '')
  return `${sign}${whole}${fraction ? `.${fraction}` : ''}`
}

const bool = (flag: number) => flag === 1
const nullableBool = (flag: number | null) => (flag === null ? null : flag === 1)
const stringList = (json: string): string[] => {
  try {
    const parsed: unknown = JSON.parse(json)
    return Array.isArray(parsed) ? parsed.filter((x): x is string => typeof x === 'string') : []
  } catch {
    return []
  }
}
const requirementsOut = (json: string) =>
  parseRequirements(json).map((r) => ({ name: r.name, label_en: r.label_en, label_ar: r.label_ar }))

/** The whole catalogue as a document, in the store's order (then by id). */
export async function exportCatalogue(db: Kysely<Database>) {
  const [[products, packages, services], groups, images] = await Promise.all([
    catalogueInOrder(db),
    db.selectFrom('product_groups').selectAll().orderBy('position').orderBy('id').execute(),
    db.selectFrom('product_images').selectAll().orderBy('position').orderBy('id').execute(),
  ])
  const imagesOf = byProduct(images)
  const packagesOf = byProduct(packages)
  const servicesOf = byProduct(services)
  return {
    format: CATALOGUE_FORMAT,
    version: CATALOGUE_VERSION,
    groups: groups.map((g) => ({
      id: g.id,
      name_en: g.name_en,
      name_ar: g.name_ar,
      image: g.image,
    })),
    products: products.map((p) => ({
      id: p.id,
      number: p.number as ProductNumber,
      group_id: p.group_id,
      name_en: p.name_en,
      name_ar: p.name_ar,
      note_en: p.note_en,
      note_ar: p.note_ar,
      image: p.image,
      images: imagesOf(p.id).map((img) => ({ id: img.id, image: img.image })),
      istoken: bool(p.istoken),
      minimum_qut: p.minimum_qut,
      maximum_qut: p.maximum_qut,
      minimum_qut_note_en: p.minimum_qut_note_en,
      minimum_qut_note_ar: p.minimum_qut_note_ar,
      is_available: bool(p.is_available),
      force_unavailable: bool(p.force_unavailable),
      company_price: decimalText(p.company_price),
      sec_company_price: p.sec_company_price === null ? null : decimalText(p.sec_company_price),
      company_percentage: decimalText(p.company_percentage),
      product_percentage: decimalText(p.product_percentage),
      product_reference: p.product_reference,
      requirements: requirementsOut(p.requirements),
      require_player_number: bool(p.require_player_number),
      th_party_api_id: p.th_party_api_id,
      th_party_as7ab_api: p.th_party_as7ab_api,
      player_numbers: stringList(p.player_numbers),
      is_tiktok: bool(p.is_tiktok),
      account_login: bool(p.account_login),
      pkey: p.pkey,
      packages: packagesOf(p.id).map((pkg) => ({
        id: pkg.id,
        name_en: pkg.name_en,
        name_ar: pkg.name_ar,
        image: pkg.image,
        type: pkg.type,
        merge_to: pkg.merge_to,
        is_available: bool(pkg.is_available),
        company_price: decimalText(pkg.company_price),
        company_percentage: decimalText(pkg.company_percentage),
        product_percentage: decimalText(pkg.product_percentage),
        package_id: pkg.package_id,
        note_en: pkg.note_en,
        note_ar: pkg.note_ar,
        minimum_qut: pkg.minimum_qut,
        maximum_qut: pkg.maximum_qut,
        minimum_qut_note_en: pkg.minimum_qut_note_en,
        minimum_qut_note_ar: pkg.minimum_qut_note_ar,
        requirements: pkg.requirements === null ? null : requirementsOut(pkg.requirements),
        require_player_number: nullableBool(pkg.require_player_number),
        th_party_api_id: pkg.th_party_api_id,
        is_tiktok: nullableBool(pkg.is_tiktok),
        account_login: nullableBool(pkg.account_login),
        pkey: pkg.pkey,
      })),
      additional_services: servicesOf(p.id).map((s) => ({
        id: s.id,
        type: s.type,
        minimum_qut: s.minimum_qut,
        minimum_qut_note_en: s.minimum_qut_note_en,
        minimum_qut_note_ar: s.minimum_qut_note_ar,
        note_en: s.note_en,
        note_ar: s.note_ar,
        company_price: decimalText(s.company_price),
        product_percentage: decimalText(s.product_percentage),
      })),
    })),
  } satisfies CatalogueFileInput
}

/** The document as a file: two-space indents, keys in a fixed order, a final newline. */
export const catalogueText = (doc: unknown) => JSON.stringify(doc, null, 2) + '\n'

export interface ImportSummary {
  groups: number
  products: number
  packages: number
  images: number
  services: number
}

const CATALOGUE_TABLES = [
  'product_groups',
  'products',
  'product_images',
  'packages',
  'product_additional_services',
] as const

/** Inserts in slices, well below both databases' limits on bound parameters. */
async function inSlices<T>(rows: T[], insert: (slice: T[]) => Promise<unknown>) {
  for (let i = 0; i < rows.length; i += 200) await insert(rows.slice(i, i + 200))
}

const storedRequirements = (list: StoredRequirement[]) =>
  JSON.stringify(list.map((r) => ({ name: r.name, label_en: r.label_en, label_ar: r.label_ar })))

/**
 * Replaces the whole catalogue with a checked document, inside the caller's transaction.
 * Ids are kept; PostgreSQL's identity sequences are moved past them afterwards.
 */
export async function replaceCatalogue(
  trx: Transaction<Database>,
  catalogue: Catalogue,
): Promise<ImportSummary> {
  // Children first: packages point at products (merge_to), products at groups.
  await trx.deleteFrom('product_additional_services').execute()
  await trx.deleteFrom('product_images').execute()
  await trx.deleteFrom('packages').execute()
  await trx.deleteFrom('products').execute()
  await trx.deleteFrom('product_groups').execute()

  await inSlices(
    catalogue.groups.map((g, position) => ({ ...g, position })),
    (rows) => trx.insertInto('product_groups').values(rows).execute(),
  )
  await inSlices(
    catalogue.products.map((p, position) => ({
      id: p.id,
      number: p.number as ProductNumber,
      group_id: p.group_id,
      position,
      name_en: p.name_en,
      name_ar: p.name_ar,
      search_text: productSearchText(p.name_en, p.name_ar),
      note_en: p.note_en,
      note_ar: p.note_ar,
      image: p.image,
      istoken: p.istoken,
      minimum_qut: p.minimum_qut,
      maximum_qut: p.maximum_qut,
      minimum_qut_note_en: p.minimum_qut_note_en,
      minimum_qut_note_ar: p.minimum_qut_note_ar,
      is_available: p.is_available,
      force_unavailable: p.force_unavailable,
      company_price: p.company_price,
      sec_company_price: p.sec_company_price,
      company_percentage: p.company_percentage,
      product_percentage: p.product_percentage,
      product_reference: p.product_reference,
      requirements: storedRequirements(p.requirements),
      require_player_number: p.require_player_number,
      th_party_api_id: p.th_party_api_id,
      th_party_as7ab_api: p.th_party_as7ab_api,
      player_numbers: JSON.stringify(p.player_numbers),
      is_tiktok: p.is_tiktok,
      account_login: p.account_login,
      pkey: p.pkey,
    })),
    (rows) => trx.insertInto('products').values(rows).execute(),
  )
  const images = catalogue.products.flatMap((p) =>
    p.images.map((img, position) => ({ ...img, product_id: p.id, position })),
  )
  await inSlices(images, (rows) => trx.insertInto('product_images').values(rows).execute())
  const packages = catalogue.products.flatMap((p) =>
    p.packages.map((pkg, position) => ({
      ...pkg,
      product_id: p.id,
      position,
      requirements: pkg.requirements === null ? null : storedRequirements(pkg.requirements),
    })),
  )
  await inSlices(packages, (rows) => trx.insertInto('packages').values(rows).execute())
  const services = catalogue.products.flatMap((p) =>
    p.additional_services.map((s, position) => ({ ...s, product_id: p.id, position })),
  )
  await inSlices(services, (rows) =>
    trx.insertInto('product_additional_services').values(rows).execute(),
  )

  if (trx.getExecutor().adapter instanceof PostgresAdapter) {
    for (const table of CATALOGUE_TABLES) {
      await sql`select setval(pg_get_serial_sequence(${table}, 'id'), coalesce((select max(id) from ${sql.table(table)}), 0) + 1, false)`.execute(
        trx,
      )
    }
  }
  return {
    groups: catalogue.groups.length,
    products: catalogue.products.length,
    packages: packages.length,
    images: images.length,
    services: services.length,
  }
}

type CatalogueDocument = Awaited<ReturnType<typeof exportCatalogue>>

/** How many rows of a kind an import added, removed and changed (by id). */
export interface KindChanges {
  added: number
  removed: number
  changed: number
}

/** One row an import added, removed or changed, to be named to the operator. */
export interface ChangedRow {
  kind: 'group' | 'product' | 'package'
  id: number
  name_en: string
  name_ar: string
  change: 'added' | 'removed' | 'changed'
}

export interface CatalogueChanges {
  groups: KindChanges
  products: KindChanges
  packages: KindChanges
  /** The rows themselves, groups then products then packages, at most CHANGED_ROWS_SHOWN. */
  rows: ChangedRow[]
}

export const CHANGED_ROWS_SHOWN = 50

/** What differs between two exports, row by row (a product's packages are rows of their own). */
export function catalogueChanges(
  before: CatalogueDocument,
  after: CatalogueDocument,
): CatalogueChanges {
  const rows: ChangedRow[] = []
  type Named = { id: number; name_en: string; name_ar: string }
  const compare = <T extends Named>(kind: ChangedRow['kind'], old: T[], now: T[]) => {
    const counts: KindChanges = { added: 0, removed: 0, changed: 0 }
    const oldById = new Map(old.map((row) => [row.id, row]))
    const nowIds = new Set(now.map((row) => row.id))
    const note = (row: T, change: ChangedRow['change']) => {
      counts[change]++
      rows.push({ kind, id: row.id, name_en: row.name_en, name_ar: row.name_ar, change })
    }
    for (const row of now) {
      const was = oldById.get(row.id)
      if (!was) note(row, 'added')
      else if (JSON.stringify(was) !== JSON.stringify(row)) note(row, 'changed')
    }
    for (const row of old) if (!nowIds.has(row.id)) note(row, 'removed')
    return counts
  }
  // A product's own fields, without its packages (those are compared one by one).
  const products = (doc: CatalogueDocument) => doc.products.map(({ packages: _, ...p }) => p)
  const packages = (doc: CatalogueDocument) => doc.products.flatMap((p) => p.packages)
  return {
    groups: compare('group', before.groups, after.groups),
    products: compare('product', products(before), products(after)),
    packages: compare('package', packages(before), packages(after)),
    rows: rows.slice(0, CHANGED_ROWS_SHOWN),
  }
}

/**
 * Replaces the catalogue with a checked document (readCatalogueText, checkCatalogue) in one
 * transaction: readers see the old catalogue or the new one, never a mix, and a failure
 * leaves the old one. Also marks the store so the demo catalogue is never loaded over it.
 * Says what it changed (catalogueChanges), and audits the import when an actor is given.
 */
export async function importCatalogue(
  db: Kysely<Database>,
  catalogue: Catalogue,
  audit?: { actor: string; now: Date },
): Promise<ImportSummary & { changes: CatalogueChanges }> {
  return db.transaction().execute(async (trx) => {
    await trx
      .insertInto('meta')
      .values({ key: CATALOGUE_SEED_META_KEY, value: new Date().toISOString() })
      .onConflict((oc) => oc.column('key').doNothing())
      .execute()
    const before = await exportCatalogue(trx)
    const summary = await replaceCatalogue(trx, catalogue)
    const changes = catalogueChanges(before, await exportCatalogue(trx))
    if (audit) {
      const { rows: _, ...counts } = changes
      await recordAudit(trx, {
        actor: audit.actor,
        action: 'catalogue:import',
        details: { ...summary, changes: counts },
        now: audit.now,
      })
    }
    return { ...summary, changes }
  })
}
