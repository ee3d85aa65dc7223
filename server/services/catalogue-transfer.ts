import { PostgresAdapter, sql, type Kysely, type Transaction } from 'kysely'
import * as v from 'valibot'
import type { ProductNumber } from '../../src/contract/catalogue'
import { MICROS, toMicros } from '../../src/domain/money'
import type { Database } from '../db/schema'
import { productSearchText } from './catalogue'
import { JsonSyntaxError, parseJsonSource, type JsonPath } from './json-source'
import { parseRequirements, type StoredRequirement } from './purchase-terms'

/*
 * The catalogue as one JSON document: what `catalogue:export` writes and `catalogue:import`
 * reads, and the form the demo catalogue is written in. Arrays are in the store's order (a
 * product's place in `products` is its place on the home grid); ids are kept, so links,
 * merge_to and group_id survive a round trip. Money and percentages are decimal strings
 * ("1.25"; at most 6 decimals), flags are true/false, names and notes come in both
 * languages. A package's purchase fields may be null: null means "as the product says".
 */

export const CATALOGUE_FORMAT = 'wallet-store/catalogue'
export const CATALOGUE_VERSION = 1

/** Marks that the catalogue was filled (demo or import), so the demo never overwrites it. */
export const CATALOGUE_SEED_META_KEY = 'demo_catalogue'

const AMOUNT_TEXT = /^\d{1,9}(\.\d{1,6})?$/
const AMOUNT_MESSAGE =
  'expected an amount as a decimal string such as "1.25" (not negative, at most 6 decimals)'

const isAmount = (x: unknown): x is string | number =>
  (typeof x === 'string' && AMOUNT_TEXT.test(x)) ||
  (typeof x === 'number' && Number.isFinite(x) && AMOUNT_TEXT.test(String(x)))

/** A decimal amount to integer micro-units. */
const Amount = v.pipe(
  v.custom<string | number>(isAmount, AMOUNT_MESSAGE),
  v.transform((x) => Number(toMicros(String(x)))),
)
const Percentage = v.pipe(
  v.custom<string | number>(
    (x) => isAmount(x) && Number(x) <= 1000,
    'expected a percentage as a decimal string such as "2.5" (0 to 1000, at most 6 decimals)',
  ),
  v.transform((x) => Number(toMicros(String(x)))),
)

const Flag = v.pipe(
  v.custom<boolean | 0 | 1>(
    (x) => typeof x === 'boolean' || x === 0 || x === 1,
    'expected true or false',
  ),
  v.transform((x) => (x ? 1 : 0)),
)

const Id = v.pipe(
  v.number('expected an id (a whole number from 1)'),
  v.integer('expected an id (a whole number from 1)'),
  v.minValue(1, 'expected an id (a whole number from 1)'),
  v.maxValue(1e12, 'the id is too large'),
)
const Quantity = v.pipe(
  v.number('expected a whole number'),
  v.integer('expected a whole number'),
  v.minValue(0, 'expected a whole number, 0 or more'),
  v.maxValue(1e12, 'the number is too large'),
)

const Name = v.pipe(
  v.string('expected text'),
  v.trim(),
  v.minLength(1, 'must not be empty'),
  v.maxLength(200, 'may be at most 200 characters'),
)
/** Optional text: missing, null and "" all mean none. */
const Note = v.pipe(
  v.optional(v.nullable(v.string('expected text or null')), null),
  v.transform((x) => (x === null || x.trim() === '' ? null : x.trim())),
  v.nullable(v.pipe(v.string(), v.maxLength(5000, 'may be at most 5000 characters'))),
)
const Key = (max: number) =>
  v.optional(
    v.nullable(
      v.pipe(
        v.string('expected text or null'),
        v.trim(),
        v.minLength(1, 'must not be empty (use null for none)'),
        v.maxLength(max, `may be at most ${max} characters`),
      ),
    ),
    null,
  )
/** A picture: a same-origin path or an http(s) URL; null lets the project draw one. */
const ImageRef = v.optional(
  v.nullable(
    v.pipe(
      v.string('expected a path or URL, or null'),
      v.regex(
        /^(\/(?![/\\])|https?:\/\/)[^\s"'<>\\]+$/,
        'expected a path starting with "/" or an http(s) URL, or null',
      ),
      v.maxLength(2000, 'may be at most 2000 characters'),
    ),
  ),
  null,
)
const FieldName = v.pipe(
  v.string('expected a field name'),
  v.regex(/^[a-z][a-z0-9_]{0,49}$/, 'expected a field name in lower case, such as "player_id"'),
)

const RequirementSchema = v.strictObject({
  name: FieldName,
  label_en: Name,
  label_ar: Name,
})
const Requirements = v.array(RequirementSchema, 'expected a list of requirements')

const GroupSchema = v.strictObject({
  id: Id,
  name_en: Name,
  name_ar: Name,
  image: ImageRef,
})

const ImageSchema = v.strictObject({ id: Id, image: ImageRef })

const PackageSchema = v.strictObject({
  id: Id,
  name_en: Name,
  name_ar: Name,
  image: ImageRef,
  type: v.optional(
    v.pipe(
      v.string('expected a type such as "package" or "direct"'),
      v.regex(/^[a-z][a-z0-9_]{0,49}$/, 'expected a type in lower case, such as "package"'),
    ),
    'package',
  ),
  merge_to: v.optional(v.nullable(Id), null),
  is_available: v.optional(Flag, true),
  company_price: Amount,
  company_percentage: v.optional(Percentage, '0'),
  product_percentage: v.optional(Percentage, '0'),
  package_id: v.optional(v.nullable(Id), null),
  note_en: Note,
  note_ar: Note,
  minimum_qut: v.optional(v.nullable(Quantity), null),
  maximum_qut: v.optional(v.nullable(Quantity), null),
  minimum_qut_note_en: Note,
  minimum_qut_note_ar: Note,
  requirements: v.optional(v.nullable(Requirements), null),
  require_player_number: v.optional(v.nullable(Flag), null),
  th_party_api_id: v.optional(v.nullable(Id), null),
  is_tiktok: v.optional(v.nullable(Flag), null),
  account_login: v.optional(v.nullable(Flag), null),
  pkey: Key(100),
})

const ServiceSchema = v.strictObject({
  id: Id,
  type: v.pipe(
    v.string('expected a service type such as "LIKES"'),
    v.regex(/^[A-Z][A-Z0-9_]{0,49}$/, 'expected a service type in capitals, such as "LIKES"'),
  ),
  minimum_qut: v.optional(Quantity, 1),
  minimum_qut_note_en: Note,
  minimum_qut_note_ar: Note,
  note_en: Note,
  note_ar: Note,
  company_price: Amount,
  product_percentage: v.optional(Percentage, '0'),
})

const ProductSchema = v.strictObject({
  id: Id,
  number: v.picklist([1, 2, 3, 4, 5, 6, 7], 'expected a product number from 1 to 7'),
  group_id: v.optional(v.nullable(Id), null),
  name_en: Name,
  name_ar: Name,
  note_en: Note,
  note_ar: Note,
  image: ImageRef,
  images: v.optional(v.array(ImageSchema, 'expected a list of images'), []),
  istoken: v.optional(Flag, false),
  minimum_qut: v.optional(Quantity, 1),
  maximum_qut: v.optional(Quantity, 0),
  minimum_qut_note_en: Note,
  minimum_qut_note_ar: Note,
  is_available: v.optional(Flag, true),
  force_unavailable: v.optional(Flag, false),
  company_price: Amount,
  sec_company_price: v.optional(v.nullable(Amount), null),
  company_percentage: v.optional(Percentage, '0'),
  product_percentage: v.optional(Percentage, '0'),
  product_reference: Key(200),
  requirements: v.optional(Requirements, []),
  require_player_number: v.optional(Flag, false),
  th_party_api_id: v.optional(v.nullable(Id), null),
  th_party_as7ab_api: Key(200),
  player_numbers: v.optional(v.array(FieldName, 'expected a list of field names'), []),
  is_tiktok: v.optional(Flag, false),
  account_login: v.optional(Flag, false),
  pkey: Key(100),
  packages: v.optional(v.array(PackageSchema, 'expected a list of packages'), []),
  additional_services: v.optional(v.array(ServiceSchema, 'expected a list of services'), []),
})

export const CatalogueFileSchema = v.strictObject({
  format: v.literal(CATALOGUE_FORMAT, `expected "${CATALOGUE_FORMAT}"`),
  version: v.literal(CATALOGUE_VERSION, `expected ${CATALOGUE_VERSION}`),
  groups: v.optional(v.array(GroupSchema, 'expected a list of groups'), []),
  products: v.array(ProductSchema, 'expected a list of products'),
})

/** A catalogue document as written (the demo catalogue is typed with this). */
export type CatalogueFileInput = v.InferInput<typeof CatalogueFileSchema>
/** A checked document: money in micro-units, flags 0/1, defaults filled in. */
export type Catalogue = v.InferOutput<typeof CatalogueFileSchema>

export interface CatalogueIssue {
  /** Where in the document, e.g. products[3].packages[0].company_price. */
  path: string
  message: string
  /** 1-based; present when the document came from text. */
  line?: number
  column?: number
}

export class CatalogueError extends Error {
  constructor(readonly issues: CatalogueIssue[]) {
    super(issues.map((issue) => formatIssue(issue)).join('\n'))
    this.name = 'CatalogueError'
  }
}

export function formatIssue(issue: CatalogueIssue, file?: string): string {
  const where = issue.line === undefined ? '' : `${issue.line}:${issue.column ?? 1}: `
  return `${file ? `${file}:` : ''}${where}${issue.path || '(document)'}: ${issue.message}`
}

export function formatPath(path: JsonPath): string {
  return path
    .map((key, i) => (typeof key === 'number' ? `[${key}]` : i === 0 ? key : `.${key}`))
    .join('')
}

function describeIssue(issue: v.BaseIssue<unknown>): Problem {
  const path = (issue.path ?? []).map((item) => item.key as string | number)
  const last = issue.path?.at(-1)
  if (last?.origin === 'key' || (issue.type === 'strict_object' && issue.kind === 'schema')) {
    if (issue.expected === 'never') {
      return { path, message: `unknown field ${JSON.stringify(last?.key)}` }
    }
    if (issue.input === undefined && issue.expected?.startsWith('"')) {
      return { path, message: `missing field ${issue.expected}` }
    }
  }
  if (issue.type === 'strict_object' && issue.kind === 'schema') {
    return { path, message: 'expected an object' }
  }
  return { path, message: issue.message }
}

/** Rules a schema cannot see: unique ids, references that exist. */
function crossCheck(catalogue: Catalogue): Problem[] {
  const problems: Problem[] = []
  const unique = (kind: string) => {
    const seen = new Map<number, JsonPath>()
    return (id: number, path: JsonPath) => {
      const first = seen.get(id)
      if (first) {
        problems.push({
          path,
          message: `${kind} id ${id} is used twice (also at ${formatPath(first)})`,
        })
      } else seen.set(id, path)
    }
  }
  const groupId = unique('group')
  const productId = unique('product')
  const packageId = unique('package')
  const imageId = unique('image')
  const serviceId = unique('service')
  catalogue.groups.forEach((g, i) => groupId(g.id, ['groups', i, 'id']))
  const groups = new Set(catalogue.groups.map((g) => g.id))
  const products = new Set(catalogue.products.map((p) => p.id))
  const distinctNames = (list: { name: string }[], path: JsonPath) => {
    const names = new Set<string>()
    list.forEach((r, k) => {
      if (names.has(r.name)) {
        problems.push({
          path: [...path, k, 'name'],
          message: `requirement ${JSON.stringify(r.name)} is listed twice`,
        })
      }
      names.add(r.name)
    })
  }
  catalogue.products.forEach((p, i) => {
    const at: JsonPath = ['products', i]
    productId(p.id, [...at, 'id'])
    if (p.group_id !== null && !groups.has(p.group_id)) {
      problems.push({
        path: [...at, 'group_id'],
        message: `there is no group with id ${p.group_id}`,
      })
    }
    if (p.maximum_qut > 0 && p.maximum_qut < p.minimum_qut) {
      problems.push({
        path: [...at, 'maximum_qut'],
        message: 'maximum_qut is below minimum_qut (use 0 for no maximum)',
      })
    }
    distinctNames(p.requirements, [...at, 'requirements'])
    p.images.forEach((img, k) => imageId(img.id, [...at, 'images', k, 'id']))
    p.additional_services.forEach((s, k) =>
      serviceId(s.id, [...at, 'additional_services', k, 'id']),
    )
    p.packages.forEach((pkg, k) => {
      const pkgAt: JsonPath = [...at, 'packages', k]
      packageId(pkg.id, [...pkgAt, 'id'])
      if (pkg.merge_to !== null && !products.has(pkg.merge_to)) {
        problems.push({
          path: [...pkgAt, 'merge_to'],
          message: `there is no product with id ${pkg.merge_to}`,
        })
      } else if (pkg.merge_to === p.id) {
        problems.push({
          path: [...pkgAt, 'merge_to'],
          message: 'a package cannot merge to its own product',
        })
      }
      if (pkg.requirements) distinctNames(pkg.requirements, [...pkgAt, 'requirements'])
    })
  })
  return problems
}

type Problem = { path: JsonPath; message: string }

function check(input: unknown): { catalogue?: Catalogue; problems: Problem[] } {
  const result = v.safeParse(CatalogueFileSchema, input)
  if (!result.success) return { problems: result.issues.map(describeIssue) }
  const problems = crossCheck(result.output)
  return problems.length > 0 ? { problems } : { catalogue: result.output, problems }
}

/** Checks a document; throws CatalogueError listing every problem (without positions). */
export function checkCatalogue(input: unknown): Catalogue {
  const { catalogue, problems } = check(input)
  if (!catalogue) {
    throw new CatalogueError(
      problems.map((p) => ({ path: formatPath(p.path), message: p.message })),
    )
  }
  return catalogue
}

/**
 * Reads and checks a document from its text. Every problem carries the line and column
 * where it is: a syntax error where the text breaks, a wrong value where that value (or its
 * key) starts, a missing field where its object starts.
 */
export function readCatalogueText(text: string): Catalogue {
  let source
  try {
    source = parseJsonSource(text)
  } catch (err) {
    if (err instanceof JsonSyntaxError) {
      throw new CatalogueError([
        { path: '', message: `not valid JSON: ${err.message}`, ...err.position },
      ])
    }
    throw err
  }
  const { catalogue, problems } = check(source.value)
  if (!catalogue) {
    const located = problems.map((p) => ({
      path: formatPath(p.path),
      message: p.message,
      ...source.locateNearest(p.path),
    }))
    // In file order, so the first one named is the first one an editor reaches.
    located.sort((a, b) => a.line - b.line || a.column - b.column)
    throw new CatalogueError(located)
  }
  return catalogue
}

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
  const [groups, products, images, packages, services] = await Promise.all([
    db.selectFrom('product_groups').selectAll().orderBy('position').orderBy('id').execute(),
    db.selectFrom('products').selectAll().orderBy('position').orderBy('id').execute(),
    db.selectFrom('product_images').selectAll().orderBy('position').orderBy('id').execute(),
    db.selectFrom('packages').selectAll().orderBy('position').orderBy('id').execute(),
    db
      .selectFrom('product_additional_services')
      .selectAll()
      .orderBy('position')
      .orderBy('id')
      .execute(),
  ])
  const byProduct = <T extends { product_id: number }>(rows: T[]) => {
    const map = new Map<number, T[]>()
    for (const row of rows) map.set(row.product_id, [...(map.get(row.product_id) ?? []), row])
    return (id: number) => map.get(id) ?? []
  }
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

/**
 * Replaces the catalogue with a checked document (readCatalogueText, checkCatalogue) in one
 * transaction: readers see the old catalogue or the new one, never a mix, and a failure
 * leaves the old one. Also marks the store so the demo catalogue is never loaded over it.
 */
export async function importCatalogue(
  db: Kysely<Database>,
  catalogue: Catalogue,
): Promise<ImportSummary> {
  return db.transaction().execute(async (trx) => {
    await trx
      .insertInto('meta')
      .values({ key: CATALOGUE_SEED_META_KEY, value: new Date().toISOString() })
      .onConflict((oc) => oc.column('key').doNothing())
      .execute()
    return replaceCatalogue(trx, catalogue)
  })
}
