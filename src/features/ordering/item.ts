import type {
  AdditionalService,
  PackageDetail,
  ProductDetail,
  ProductNumber,
  Requirement,
} from '../../contract/catalogue'

/** A product bought directly, or one package: what a purchase form needs to know. */
export interface Purchasable {
  target: 'product' | 'package'
  id: number
  productId: number
  number: ProductNumber
  name: string
  productName: string
  available: boolean
  minimum: number
  maximum: number
  minimumNote?: string | null
  companyPrice: number
  secCompanyPrice?: number | null
  companyPercentage: number
  productPercentage: number
  productReference?: string | null
  requirements: Requirement[]
  requirePlayerNumber: boolean
  thirdPartyApiId?: number | null
  thirdPartyAs7abApi?: string | null
  isTiktok: boolean
  pkey?: string | null
  services: AdditionalService[]
}

export function fromProduct(product: ProductDetail): Purchasable {
  return {
    target: 'product',
    id: product.id,
    productId: product.id,
    number: product.number,
    name: product.name,
    productName: product.name,
    available: product.is_available && !product.force_unavailable,
    minimum: product.minimum_qut,
    maximum: product.maximum_qut,
    minimumNote: product.minimum_qut_note,
    companyPrice: product.company_price,
    secCompanyPrice: product.sec_company_price,
    companyPercentage: product.company_percentage,
    productPercentage: product.product_percentage,
    productReference: product.product_reference,
    requirements: product.requirements,
    requirePlayerNumber: product.require_player_number,
    thirdPartyApiId: product.th_party_api_id,
    thirdPartyAs7abApi: product.th_party_as7ab_api,
    isTiktok: product.is_tiktok,
    pkey: product.pkey,
    services: product.product_additional_services,
  }
}

export function fromPackage(pkg: PackageDetail): Purchasable {
  return {
    target: 'package',
    id: pkg.id,
    productId: pkg.product_id,
    number: pkg.number,
    name: pkg.name,
    productName: pkg.product_name,
    available: pkg.available && pkg.is_available && !pkg.force_unavailable,
    minimum: pkg.minimum_qut,
    maximum: pkg.maximum_qut,
    minimumNote: pkg.minimum_qut_note,
    companyPrice: pkg.company_price,
    secCompanyPrice: pkg.sec_company_price,
    companyPercentage: pkg.company_percentage,
    productPercentage: pkg.product_percentage,
    productReference: pkg.product_reference,
    requirements: pkg.requirements,
    requirePlayerNumber: pkg.require_player_number,
    thirdPartyApiId: pkg.th_party_api_id,
    thirdPartyAs7abApi: pkg.th_party_as7ab_api,
    isTiktok: pkg.is_tiktok,
    pkey: pkg.pkey,
    services: [],
  }
}

export type FormKind = 'social' | 'crypto' | 'requirements' | 'standard'

/** Spec section 2: which of the four order forms an item gets. */
export function formKind(item: Purchasable): FormKind {
  if (item.services.length > 0) return 'social'
  if (item.number === 3 || (item.secCompanyPrice !== null && item.secCompanyPrice !== undefined))
    return 'crypto'
  if (item.requirements.length > 0) return 'requirements'
  return 'standard'
}

/** The Free Fire package variant hides quantity and total: one unit per order. */
export const isFreeFire = (item: Purchasable) =>
  item.target === 'package' && item.pkey === 'FREE_FIRE'

export const needsPlayerNumber = (item: Purchasable) =>
  !item.isTiktok && (item.requirePlayerNumber || !!item.thirdPartyApiId)
