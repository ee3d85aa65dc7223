/**
 * The one pricing rule (issue: ordering), used by the storefront to show a price and by the
 * server to charge it. All amounts are integer micro-units; percentages are decimals as the
 * catalogue gives them (2.5 means 2.5 %).
 *
 * - Customer: company_price x (1 + product_percentage/100) when product_percentage > 0; for
 *   product number 6 also x (1 + company_percentage/100) when company_percentage > 0.
 * - Company account: company_price x (1 + company_percentage/100) when company_percentage > 0.
 * - The crypto form charges sec_company_price instead of company_price above 100 units.
 * - Total = quantity x unit price.
 */
export interface PriceInput {
  companyPrice: bigint
  secCompanyPrice?: bigint | null
  companyPercentage?: number | null
  productPercentage?: number | null
  /** The product number (1-7) the item belongs to. */
  number: number
}

export type AccountType = 'COMPANY' | 'CUSTOMER'

export const CRYPTO_SECOND_PRICE_ABOVE = 100

/** A percentage as basis points (hundredths of a percent), exactly, for integer arithmetic. */
export function basisPoints(percentage: number | null | undefined): bigint {
  if (!percentage || !Number.isFinite(percentage) || percentage <= 0) return 0n
  return BigInt(Math.round(percentage * 100))
}

const BP = 10_000n

/** Rounds a non-negative numerator / denominator half up. */
function divideRounded(numerator: bigint, denominator: bigint): bigint {
  return (numerator * 2n + denominator) / (denominator * 2n)
}

export function unitPrice(
  item: PriceInput,
  account: AccountType,
  options: { crypto?: boolean; quantity?: number } = {},
): bigint {
  const base =
    options.crypto &&
    (options.quantity ?? 0) > CRYPTO_SECOND_PRICE_ABOVE &&
    item.secCompanyPrice !== null &&
    item.secCompanyPrice !== undefined
      ? item.secCompanyPrice
      : item.companyPrice
  const factors: bigint[] = []
  if (account === 'COMPANY') factors.push(basisPoints(item.companyPercentage))
  else {
    factors.push(basisPoints(item.productPercentage))
    if (item.number === 6) factors.push(basisPoints(item.companyPercentage))
  }
  let numerator = base
  let denominator = 1n
  for (const bp of factors) {
    if (bp === 0n) continue
    numerator *= BP + bp
    denominator *= BP
  }
  return divideRounded(numerator, denominator)
}

export function totalPrice(unit: bigint, quantity: number): bigint {
  if (!Number.isSafeInteger(quantity) || quantity < 0)
    throw new RangeError(`Bad quantity: ${quantity}`)
  return unit * BigInt(quantity)
}

/** A USD amount in another currency at a rate (units of that currency per USD), whole numbers. */
export function convertFromUsd(
  micros: bigint,
  ratePerUsd: number,
  currency: 'USD' | 'LBP',
): bigint {
  if (currency === 'USD') return micros
  const rate = BigInt(Math.round(ratePerUsd * 1_000_000))
  const converted = divideRounded(micros * rate, 1_000_000n)
  // LBP has no fractions: round to whole pounds.
  return divideRounded(converted, 1_000_000n) * 1_000_000n
}
