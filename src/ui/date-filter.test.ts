import { describe, expect, it } from 'vitest'
import { dateRange } from './date-filter'

const now = new Date(2026, 10, 25, 15, 30)

describe('dateRange', () => {
  it('is empty for all dates', () => {
    expect(dateRange('', {}, { now })).toEqual({})
  })

  it('runs from the preset start through today', () => {
    expect(dateRange('today', {}, { now })).toEqual({
      start_date: '2026-11-25',
      end_date: '2026-11-25',
    })
    expect(dateRange('week', {}, { now })).toEqual({
      start_date: '2026-11-18',
      end_date: '2026-11-25',
    })
    expect(dateRange('month', {}, { now })).toEqual({
      start_date: '2026-10-25',
      end_date: '2026-11-25',
    })
  })

  it("counts the days in the store's time zone, not the device's", () => {
    // 23:52 in London is already the next day in Beirut (UTC+2), still the day before in Los
    // Angeles.
    const late = new Date('2026-11-26T23:52:00Z')
    expect(dateRange('today', {}, { now: late, timeZone: 'Asia/Beirut' })).toEqual({
      start_date: '2026-11-27',
      end_date: '2026-11-27',
    })
    expect(dateRange('week', {}, { now: late, timeZone: 'America/Los_Angeles' })).toEqual({
      start_date: '2026-11-19',
      end_date: '2026-11-26',
    })
    // Across a month and a year.
    expect(
      dateRange('month', {}, { now: new Date('2026-12-31T22:30:00Z'), timeZone: 'Asia/Beirut' }),
    ).toEqual({ start_date: '2026-12-01', end_date: '2027-01-01' })
  })

  it("uses the device's zone when the store's is not one the browser knows", () => {
    expect(dateRange('today', {}, { now, timeZone: 'Mars/Olympus' })).toEqual({
      start_date: '2026-11-25',
      end_date: '2026-11-25',
    })
  })

  it('takes the typed range when 2000-01-01 marks a specific date', () => {
    expect(dateRange('2000-01-01', { start: '2026-01-02', end: '' }, { now })).toEqual({
      start_date: '2026-01-02',
      end_date: undefined,
    })
  })
})
