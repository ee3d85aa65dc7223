import { describe, expect, it } from 'vitest'
import { toMicros } from './money'
import { convertFromUsd, orderTotal, unitPrice } from './pricing'

const item = (over: Partial<Parameters<typeof unitPrice>[0]> = {}) => ({
  companyPrice: toMicros('10'),
  companyPercentage: 5,
  productPercentage: 20,
  number: 1,
  ...over,
})

describe('unitPrice', () => {
  it('charges a customer the product percentage on the company price', () => {
    expect(unitPrice(item(), 'CUSTOMER')).toBe(toMicros('12'))
  })

  it('adds the company percentage for a customer on product number 6 only', () => {
    expect(unitPrice(item({ number: 6 }), 'CUSTOMER')).toBe(toMicros('12.6'))
    expect(unitPrice(item({ number: 5 }), 'CUSTOMER')).toBe(toMicros('12'))
  })

  it('charges a company account the company percentage only', () => {
    expect(unitPrice(item(), 'COMPANY')).toBe(toMicros('10.5'))
    expect(unitPrice(item({ number: 6 }), 'COMPANY')).toBe(toMicros('10.5'))
  })

  it('ignores percentages that are zero, negative, missing or not numbers', () => {
    for (const pct of [0, -5, null, undefined, Number.NaN]) {
      expect(unitPrice(item({ productPercentage: pct, companyPercentage: pct }), 'CUSTOMER')).toBe(
        toMicros('10'),
      )
      expect(unitPrice(item({ companyPercentage: pct }), 'COMPANY')).toBe(toMicros('10'))
    }
  })

  it('uses the second company price for crypto above 100 units', () => {
    const crypto = item({ secCompanyPrice: toMicros('9'), productPercentage: 0 })
    expect(unitPrice(crypto, 'CUSTOMER', { crypto: true, quantity: 100 })).toBe(toMicros('10'))
    expect(unitPrice(crypto, 'CUSTOMER', { crypto: true, quantity: 101 })).toBe(toMicros('9'))
    expect(unitPrice(crypto, 'CUSTOMER', { crypto: false, quantity: 500 })).toBe(toMicros('10'))
    expect(
      unitPrice(item({ productPercentage: 0 }), 'CUSTOMER', { crypto: true, quantity: 500 }),
    ).toBe(toMicros('10'))
  })

  it('is exact with decimal percentages and rounds half up to the micro-unit', () => {
    expect(
      unitPrice(item({ companyPrice: toMicros('0.333333'), productPercentage: 2.5 }), 'CUSTOMER'),
    ).toBe(341_666n)
    expect(unitPrice(item({ companyPrice: 1n, productPercentage: 50 }), 'CUSTOMER')).toBe(2n)
  })
})

describe('orderTotal', () => {
  const usd = { crypto: false, currency: 'USD' as const, lbpRate: 89_500 }

  it('is quantity times the unit price, in micro-units', () => {
    const plain = item({ companyPrice: toMicros('1.1'), productPercentage: 0 })
    expect(orderTotal(plain, 'CUSTOMER', { ...usd, quantity: 3 })).toBe(toMicros('3.3'))
    expect(orderTotal(item({ number: 6 }), 'CUSTOMER', { ...usd, quantity: 0 })).toBe(0n)
  })

  it('multiplies the exact unit price and rounds once, so large orders are not under-charged', () => {
    // 0.001 x 1.07 = 0.00107 a unit: shown as 0.001070, exact. At 0.0007 x 1.025 = 0.0007175
    // a unit (shown 0.000718), ten million units cost 7,175 USD, not 7,180 or 7,170.
    const cheap = item({ companyPrice: toMicros('0.0007'), productPercentage: 2.5 })
    expect(unitPrice(cheap, 'CUSTOMER')).toBe(718n)
    expect(orderTotal(cheap, 'CUSTOMER', { ...usd, quantity: 10_000_000 })).toBe(toMicros('7175'))
  })

  it('converts the exact total to whole pounds once', () => {
    const cheap = item({ companyPrice: toMicros('0.0007'), productPercentage: 2.5 })
    const lbp = { ...usd, currency: 'LBP' as const }
    // 7,175 USD x 89,500 = 642,162,500 LBP.
    expect(orderTotal(cheap, 'CUSTOMER', { ...lbp, quantity: 10_000_000 })).toBe(
      toMicros('642162500'),
    )
    // 3 x 0.0007175 = 0.0021525 USD = 192.648... LBP: 193 pounds.
    expect(orderTotal(cheap, 'CUSTOMER', { ...lbp, quantity: 3 })).toBe(toMicros('193'))
  })

  it('refuses a quantity that is not a whole number', () => {
    expect(() => orderTotal(item(), 'CUSTOMER', { ...usd, quantity: 1.5 })).toThrow(RangeError)
    expect(() => orderTotal(item(), 'CUSTOMER', { ...usd, quantity: -1 })).toThrow(RangeError)
  })
})

describe('convertFromUsd', () => {
  it('keeps USD and turns LBP into whole pounds at the rate', () => {
    expect(convertFromUsd(toMicros('1.5'), 89500, 'USD')).toBe(toMicros('1.5'))
    expect(convertFromUsd(toMicros('1.5'), 89500, 'LBP')).toBe(toMicros('134250'))
    expect(convertFromUsd(toMicros('0.000011'), 89500, 'LBP')).toBe(toMicros('1'))
  })
})
