import { describe, expect, it } from 'vitest'
import { getCountryCallingCode } from 'libphonenumber-js/min'
import { DEFAULT_CALLING_CODE, DEFAULT_COUNTRY, normalisePhone } from './phone'

describe('normalisePhone', () => {
  it('keeps a valid international number', () => {
    expect(normalisePhone('+961 70 123 456')).toBe('+96170123456')
    expect(normalisePhone('+44 7911 123456')).toBe('+447911123456')
  })

  it('prefixes + and turns 9610 into 961', () => {
    expect(normalisePhone('96170123456')).toBe('+96170123456')
    expect(normalisePhone('961070123456')).toBe('+96170123456')
    expect(normalisePhone('+9610 3 123 456')).toBe('+9613123456')
    expect(normalisePhone('00961 3 123 456')).toBe('+9613123456')
  })

  it('reads a national number as Lebanese unless told otherwise', () => {
    expect(normalisePhone('03 123 456')).toBe('+9613123456')
    expect(normalisePhone('70-123-456')).toBe('+96170123456')
    expect(normalisePhone('0612 345 678', 'FR')).toBe('+33612345678')
  })

  it('refuses what is not a valid number', () => {
    expect(normalisePhone('')).toBeNull()
    expect(normalisePhone('12')).toBeNull()
    expect(normalisePhone('+961 12')).toBeNull()
    expect(normalisePhone('call me')).toBeNull()
  })
})

describe('DEFAULT_CALLING_CODE', () => {
  it("is the default country's calling code", () => {
    expect(DEFAULT_CALLING_CODE).toBe(getCountryCallingCode(DEFAULT_COUNTRY))
  })
})
