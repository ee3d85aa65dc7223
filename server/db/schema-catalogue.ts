import type { Generated, Selectable } from 'kysely'

/*
 * Catalogue tables (migration 0003_catalogue). Money columns are integer micro-units;
 * percentages are micro-units of a percent (2.5 % is 2,500,000). Flags are 0/1. A null
 * `image` means the project draws one (services/catalogue-images.ts).
 */

export interface ProductGroupTable {
  id: Generated<number>
  name_en: string
  name_ar: string
  image: string | null
  position: Generated<number>
}

export interface ProductTable {
  id: Generated<number>
  /** Which order form the product page shows: 1 to 7 (see docs/api.md, Catalogue). */
  number: number
  group_id: number | null
  position: Generated<number>
  name_en: string
  name_ar: string
  search_text: string
  note_en: string | null
  note_ar: string | null
  image: string | null
  istoken: Generated<number>
  minimum_qut: Generated<number>
  /** 0 means no upper bound. */
  maximum_qut: Generated<number>
  minimum_qut_note_en: string | null
  minimum_qut_note_ar: string | null
  is_available: Generated<number>
  force_unavailable: Generated<number>
  company_price: number
  sec_company_price: number | null
  company_percentage: Generated<number>
  product_percentage: Generated<number>
  product_reference: string | null
  /** JSON: [{name, label_en, label_ar}]. */
  requirements: Generated<string>
  require_player_number: Generated<number>
  th_party_api_id: number | null
  th_party_as7ab_api: string | null
  /** JSON: a list of field names. */
  player_numbers: Generated<string>
  is_tiktok: Generated<number>
  /** The form asks for the game account's e-mail or phone and an optional password. */
  account_login: Generated<number>
  pkey: string | null
}

export interface ProductImageTable {
  id: Generated<number>
  product_id: number
  image: string | null
  position: Generated<number>
}

/** A product's entry. Nullable purchase fields fall back to the product's. */
export interface PackageTable {
  id: Generated<number>
  product_id: number
  position: Generated<number>
  name_en: string
  name_ar: string
  image: string | null
  type: Generated<string>
  /** Another product this entry stands for; the storefront links to that product's page. */
  merge_to: number | null
  is_available: Generated<number>
  company_price: number
  company_percentage: Generated<number>
  product_percentage: Generated<number>
  /** The provider's id of this package. */
  package_id: number | null
  note_en: string | null
  note_ar: string | null
  minimum_qut: number | null
  maximum_qut: number | null
  minimum_qut_note_en: string | null
  minimum_qut_note_ar: string | null
  requirements: string | null
  require_player_number: number | null
  th_party_api_id: number | null
  is_tiktok: number | null
  account_login: number | null
  pkey: string | null
}

export interface ProductAdditionalServiceTable {
  id: Generated<number>
  product_id: number
  position: Generated<number>
  /** LIKES, COMMENTS, VIEWS, FOLLOWERS, ... */
  type: string
  minimum_qut: Generated<number>
  minimum_qut_note_en: string | null
  minimum_qut_note_ar: string | null
  note_en: string | null
  note_ar: string | null
  company_price: number
  product_percentage: Generated<number>
}

export interface CatalogueDatabase {
  product_groups: ProductGroupTable
  products: ProductTable
  product_images: ProductImageTable
  packages: PackageTable
  product_additional_services: ProductAdditionalServiceTable
}

export type ProductRow = Selectable<ProductTable>
export type PackageRow = Selectable<PackageTable>
export type ProductGroupRow = Selectable<ProductGroupTable>
export type ProductImageRow = Selectable<ProductImageTable>
export type AdditionalServiceRow = Selectable<ProductAdditionalServiceTable>
