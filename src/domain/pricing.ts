import type { Currency, UserType } from '../contract/profile'
import { toMicros } from './money'

/**
 * The one pricing rule, used by the storefront to show a price and by the server to charge it
 * (worked examples in docs/architecture.md, Prices). Amounts are integer micro-units; percentages are decimals
 * as the catalogue gives them (2.5 means 2.5 %).
 *
 * - Customer: company_price x (1 + product_percentage/100) when product_percentage > 0; for
 *   product number 6 also x (1 + company_percentage/100) when company_percentage > 0.
 * - Company account: company_price x (1 + company_percentage/100) when company_percentage > 0.
 * - The crypto form charges sec_company_price instead of company_price above 100 units.
 * - Total = quantity x the exact unit price, rounded once (half up) to the micro-unit; in an
 *   LBP wallet, the exact USD total at the rate, rounded once to whole pounds.
 */
export interface PriceInput {
  companyPrice: bigint
  secCompanyPrice?: bigint | null
  companyPercentage?: number | null
  productPercentage?: number | null
  /** The product number (1-7) the item belongs to. */
  number: number
}

export type AccountType = UserType

export const CRYPTO_SECOND_PRICE_ABOVE = 100

export interface PriceOptions {
  /** The crypto form: the second price applies above 100 units. */
  crypto?: boolean
  quantity?: number
}

/** A percentage as millionths of a percent, exactly (0 when it does not apply). */
function percentMicros(percentage: number | null | undefined): bigint {
  if (!percentage || !Number.isFinite(percentage) || percentage <= 0) return 0n
  return toMicros(percentage)
}

const PERCENT_SCALE = 100_000_000n // 100 % in millionths of a percent

/** Rounds a non-negative numerator / denominator half up. */
function divideRounded(numerator: bigint, denominator: bigint): bigint {
  return (numerator * 2n + denominator) / (denominator * 2n)
}

/** The exact unit price as a fraction of micro-units. */
function exactUnit(item: PriceInput, account: AccountType, options: PriceOptions) {
  const base =
    options.crypto &&
    (options.quantity ?? 0) > CRYPTO_SECOND_PRICE_ABOVE &&
    item.secCompanyPrice !== null &&
    item.secCompanyPrice !== undefined
      ? item.secCompanyPrice
      : item.companyPrice
  const percentages =
    account === 'COMPANY'
      ? [item.companyPercentage]
      : item.number === 6
        ? [item.productPercentage, item.companyPercentage]
        : [item.productPercentage]
  let numerator = base
  let denominator = 1n
  for (const pct of percentages.map(percentMicros)) {
    if (pct === 0n) continue
    numerator *= PERCENT_SCALE + pct
    denominator *= PERCENT_SCALE
  }
  return { numerator, denominator }
}

/** The unit price in USD micro-units, rounded half up: what the form shows a unit costs. */
export function unitPrice(item: PriceInput, account: AccountType, options: PriceOptions = {}) {
  const { numerator, denominator } = exactUnit(item, account, options)
  return divideRounded(numerator, denominator)
}

/**
 * What an order costs in the wallet's currency: quantity times the exact unit price, rounded
 * once (LBP at `lbpRate` pounds per USD, to whole pounds).
 */
export function orderTotal(
  item: PriceInput,
  account: AccountType,
  {
    quantity,
    crypto,
    currency,
    lbpRate,
  }: Required<PriceOptions> & {
    currency: Currency
    lbpRate: number
  },
): bigint {
  if (!Number.isSafeInteger(quantity) || quantity < 0)
    throw new RangeError(`Bad quantity: ${quantity}`)
  const { numerator, denominator } = exactUnit(item, account, { crypto, quantity })
  const usd = numerator * BigInt(quantity)
  if (currency === 'USD') return divideRounded(usd, denominator)
  const rate = toMicros(lbpRate)
  // micros x rate-micros / 10^6 is LBP micro-units; then to whole pounds.
  return divideRounded(usd * rate, denominator * 1_000_000n * 1_000_000n) * 1_000_000n
}

/** A USD amount in the wallet's currency at a rate (pounds per USD), LBP in whole pounds. */
export function convertFromUsd(micros: bigint, ratePerUsd: number, currency: Currency): bigint {
  if (currency === 'USD') return micros
  return divideRounded(micros * toMicros(ratePerUsd), 1_000_000n * 1_000_000n) * 1_000_000n
}
