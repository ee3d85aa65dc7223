import * as v from 'valibot'
import { toMicros } from '../../src/domain/money'
import { JsonSyntaxError, parseJsonSource, type JsonPath } from './json-source'

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

/** The issues by where they are in the file, each with its line and column when known. */
export function issuesByPath(issues: CatalogueIssue[]): Record<string, string[]> {
  const errors: Record<string, string[]> = Object.create(null) // keyed by the file's paths
  for (const issue of issues) {
    const where = issue.line === undefined ? '' : `line ${issue.line}, column ${issue.column}: `
    ;(errors[issue.path || '(document)'] ??= []).push(where + issue.message)
  }
  return errors
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
