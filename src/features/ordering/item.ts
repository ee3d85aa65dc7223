import type {
  AdditionalService,
  PackageDetail,
  ProductDetail,
  ProductNumber,
} from '../../contract/catalogue'
import { toMicros } from '../../domain/money'
import type { PurchaseTerms } from '../../domain/ordering'
import type { PriceInput } from '../../domain/pricing'

/** A product bought directly, or one package: what a purchase form needs to know. */
export interface Purchasable {
  /** The form's rules, as the server applies them too. */
  terms: PurchaseTerms
  id: number
  productId: number
  number: ProductNumber
  name: string
  productName: string
  available: boolean
  minimumNote?: string | null
  productReference?: string | null
  /** The item's price before the social service chosen, if any. */
  price: PriceInput
  services: AdditionalService[]
}

type Detail = ProductDetail | PackageDetail

function termsOf(detail: Detail, target: PurchaseTerms['target'], services: AdditionalService[]) {
  return {
    target,
    number: detail.number,
    minimum: detail.minimum_qut,
    maximum: detail.maximum_qut,
    requirements: detail.requirements,
    requirePlayerNumber: detail.require_player_number,
    thirdPartyApiId: detail.th_party_api_id ?? null,
    thirdPartyAs7abApi: detail.th_party_as7ab_api ?? null,
    isTiktok: detail.is_tiktok,
    accountLogin: detail.account_login,
    pkey: detail.pkey ?? null,
    hasSecondPrice: detail.sec_company_price !== null && detail.sec_company_price !== undefined,
    services: services.map((s) => ({ type: s.type, minimum: s.minimum_qut })),
  } satisfies PurchaseTerms
}

function priceOf(detail: Detail): PriceInput {
  return {
    companyPrice: toMicros(detail.company_price),
    secCompanyPrice:
      detail.sec_company_price === null || detail.sec_company_price === undefined
        ? null
        : toMicros(detail.sec_company_price),
    companyPercentage: detail.company_percentage,
    productPercentage: detail.product_percentage,
    number: detail.number,
  }
}

export function fromProduct(product: ProductDetail): Purchasable {
  return {
    terms: termsOf(product, 'product', product.product_additional_services),
    id: product.id,
    productId: product.id,
    number: product.number,
    name: product.name,
    productName: product.name,
    available: product.is_available && !product.force_unavailable,
    minimumNote: product.minimum_qut_note,
    productReference: product.product_reference,
    price: priceOf(product),
    services: product.product_additional_services,
  }
}

export function fromPackage(pkg: PackageDetail): Purchasable {
  return {
    terms: termsOf(pkg, 'package', []),
    id: pkg.id,
    productId: pkg.product_id,
    number: pkg.number,
    name: pkg.name,
    productName: pkg.product_name,
    available: pkg.available && pkg.is_available && !pkg.force_unavailable,
    minimumNote: pkg.minimum_qut_note,
    productReference: pkg.product_reference,
    price: priceOf(pkg),
    services: [],
  }
}

/** The price of one unit of the chosen social service, or of the item itself. */
export function priceFor(item: Purchasable, serviceType: string | undefined): PriceInput {
  const service = item.services.find((s) => s.type === serviceType)
  if (!service) return item.price
  return {
    companyPrice: toMicros(service.company_price),
    productPercentage: service.product_percentage ?? 0,
    companyPercentage: item.price.companyPercentage,
    number: item.number,
  }
}
