import { afterEach, describe, expect, it } from 'vitest'
import { INTL_LOCALES, LOCALE_CODES } from '../contract/locales'
import { formatDate, formatDateTime, formatTime } from './dates'

const zone = process.env.TZ

describe('dates', () => {
  afterEach(() => {
    if (zone === undefined) delete process.env.TZ
    else process.env.TZ = zone
  })

  it('writes a date and a time in English and in Arabic', () => {
    process.env.TZ = 'Asia/Beirut'
    const at = new Date('2026-12-03T17:05:00Z')
    expect(formatDate(at, 'en')).toBe('Dec 3, 2026')
    expect(formatTime(at, 'en')).toBe('7:05 PM')
    expect(formatDate(at, 'ar')).toBe('03\u200f/12\u200f/2026')
    expect(formatTime(at, 'ar')).toBe('7:05 م')
    expect(formatDateTime(new Date('2026-01-01T00:30:00+02:00'), 'en')).toBe(
      'Jan 1, 2026, 12:30 AM',
    )
  })

  it("writes what Intl.DateTimeFormat writes for each language's locale, in the device's zone", () => {
    for (const timeZone of ['UTC', 'Asia/Beirut', 'America/Los_Angeles', 'Asia/Kolkata']) {
      process.env.TZ = timeZone
      // Every 7 hours and 13 minutes for two years: every month, hour and minute's tens,
      // both sides of noon and midnight, and the zones' clock changes.
      for (const locale of LOCALE_CODES) {
        const intl = (options: Intl.DateTimeFormatOptions) =>
          new Intl.DateTimeFormat(INTL_LOCALES[locale], options)
        const date = intl({ dateStyle: 'medium' })
        const time = intl({ timeStyle: 'short' })
        const both = intl({ dateStyle: 'medium', timeStyle: 'short' })
        for (let t = Date.UTC(2025, 0, 1); t < Date.UTC(2027, 0, 1); t += 433 * 60_000) {
          const at = new Date(t)
          const where = `${at.toISOString()} in ${timeZone}, ${locale}`
          expect(formatDate(at, locale), where).toBe(date.format(at))
          expect(formatTime(at, locale), where).toBe(time.format(at))
          expect(formatDateTime(at, locale), where).toBe(both.format(at))
        }
      }
    }
  })
})
