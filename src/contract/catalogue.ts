import * as v from 'valibot'
import { ImageSchema } from './common'

/** 0/1 flags as the API sends them (docs/api.md, Values on the wire); true/false reads the same. */
export const FlagSchema = v.pipe(
  v.union([v.boolean(), v.number(), v.picklist(['0', '1'])]),
  v.transform((value) => value === true || value === 1 || value === '1'),
)

/** A decimal amount on the wire; integer micro-units everywhere else (src/domain/money.ts). */
export const AmountSchema = v.pipe(
  v.union([v.number(), v.pipe(v.string(), v.regex(/^-?\d+(\.\d+)?$/))]),
  v.transform(Number),
)

/** A list of items encoded as a JSON string (requirements, player_numbers, item_codes). */
export function jsonList<T extends v.GenericSchema>(item: T) {
  return v.pipe(
    v.nullish(v.union([v.string(), v.array(v.unknown())]), '[]'),
    v.transform((value) => {
      if (Array.isArray(value)) return value
      try {
        const parsed: unknown = JSON.parse(value || '[]')
        return Array.isArray(parsed) ? parsed : []
      } catch {
        return []
      }
    }),
    v.array(item),
  )
}

export const PRODUCT_NUMBERS = [1, 2, 3, 4, 5, 6, 7] as const
export const ProductNumberSchema = v.picklist(PRODUCT_NUMBERS)
export type ProductNumber = v.InferOutput<typeof ProductNumberSchema>

/** Product in a list or a search (see docs/api.md, GET /api/products). */
export const ProductSummarySchema = v.object({
  id: v.number(),
  number: ProductNumberSchema,
  name: v.string(),
  image: v.nullish(v.string()),
  available: FlagSchema,
})
export type ProductSummary = v.InferOutput<typeof ProductSummarySchema>

/** Laravel-style page: the items plus total and per_page (see docs/api.md, Pages). */
export function pageOf<T extends v.GenericSchema>(item: T) {
  return v.object({
    data: v.array(item),
    total: v.number(),
    per_page: v.number(),
    current_page: v.number(),
    last_page: v.number(),
  })
}

export const RequirementSchema = v.object({ name: v.string(), label: v.string() })
export type Requirement = v.InferOutput<typeof RequirementSchema>

export const SERVICE_TYPES = ['LIKES', 'COMMENTS', 'VIEWS', 'FOLLOWERS'] as const

export const AdditionalServiceSchema = v.object({
  type: v.string(),
  minimum_qut: v.nullish(v.number(), 1),
  minimum_qut_note: v.nullish(v.string()),
  note: v.nullish(v.string()),
  company_price: AmountSchema,
  product_percentage: v.nullish(AmountSchema, 0),
})
export type AdditionalService = v.InferOutput<typeof AdditionalServiceSchema>

/** What products and packages share for buying: bounds, prices, what the order needs. */
const purchaseFields = {
  note: v.nullish(v.string()),
  minimum_qut: v.nullish(v.number(), 1),
  maximum_qut: v.nullish(v.number(), 0),
  minimum_qut_note: v.nullish(v.string()),
  is_available: FlagSchema,
  force_unavailable: v.nullish(FlagSchema, false),
  company_price: AmountSchema,
  sec_company_price: v.nullish(AmountSchema),
  company_percentage: v.nullish(AmountSchema, 0),
  product_percentage: v.nullish(AmountSchema, 0),
  product_reference: v.nullish(v.string()),
  requirements: jsonList(RequirementSchema),
  require_player_number: v.nullish(FlagSchema, false),
  th_party_api_id: v.nullish(v.number()),
  th_party_as7ab_api: v.nullish(v.string()),
  player_numbers: jsonList(v.string()),
  is_tiktok: v.nullish(FlagSchema, false),
  /** The form asks for the game account's e-mail or phone and an optional password. */
  account_login: v.nullish(FlagSchema, false),
  pkey: v.nullish(v.string()),
}

/** GET products/{id}: the product detail (see docs/api.md, Catalogue). */
export const ProductDetailSchema = v.object({
  id: v.number(),
  number: ProductNumberSchema,
  name: v.string(),
  image: v.nullish(v.string()),
  images: v.nullish(v.array(ImageSchema), []),
  istoken: v.nullish(FlagSchema, false),
  /** Whether it can be bought now: available and not forced unavailable. */
  available: v.nullish(FlagSchema),
  group_id: v.nullish(v.number()),
  /** The group's name in the language asked, with `group_id`. */
  group_name: v.nullish(v.string()),
  ...purchaseFields,
  product_additional_services: v.nullish(v.array(AdditionalServiceSchema), []),
})
export type ProductDetail = v.InferOutput<typeof ProductDetailSchema>
export const ProductDetailReplySchema = v.object({ data: ProductDetailSchema })

/** Entry of a product's package list (see docs/api.md, GET /api/products/{id}/packages). */
export const PackageSchema = v.object({
  id: v.number(),
  name: v.string(),
  image: v.nullish(v.string()),
  number: ProductNumberSchema,
  type: v.string(),
  merge_to: v.nullish(v.number()),
  available: FlagSchema,
  is_available: FlagSchema,
  company_price: AmountSchema,
  company_percentage: v.nullish(AmountSchema, 0),
  product_percentage: v.nullish(AmountSchema, 0),
  package_id: v.nullish(v.number()),
})
export type Package = v.InferOutput<typeof PackageSchema>

/** GET products/packages/{id}: one package with what its purchase form needs. */
export const PackageDetailSchema = v.object({
  ...PackageSchema.entries,
  ...purchaseFields,
  istoken: v.nullish(FlagSchema, false),
  product_id: v.number(),
  product_name: v.string(),
})
export type PackageDetail = v.InferOutput<typeof PackageDetailSchema>
export const PackageDetailReplySchema = v.object({ data: PackageDetailSchema })

export const ProductPageSchema = pageOf(ProductSummarySchema)
export type ProductPage = v.InferOutput<typeof ProductPageSchema>
export const PackagePageSchema = pageOf(PackageSchema)

/** A group of the catalogue in the list of groups: how home offers them. */
export const GroupSummarySchema = v.object({
  id: v.number(),
  name: v.string(),
  image: v.nullish(v.string()),
  /** How many products it holds. */
  products_count: v.number(),
})
export type GroupSummary = v.InferOutput<typeof GroupSummarySchema>

/** GET products/groups: the groups that hold products, in the store's order. */
export const GroupListReplySchema = v.object({ data: v.array(GroupSummarySchema) })
export type GroupListReply = v.InferOutput<typeof GroupListReplySchema>

/** GET products/by-group/{id} */
export const GroupReplySchema = v.object({
  data: v.object({
    id: v.number(),
    name: v.string(),
    image: v.nullish(v.string()),
    products: v.array(ProductSummarySchema),
  }),
})

export { MAX_PER_PAGE, PAGE_STEP } from './constants'
