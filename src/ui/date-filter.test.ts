import { describe, expect, it } from 'vitest'
import { dateRange } from './date-filter'

const now = new Date(2026, 10, 25, 15, 30)

describe('dateRange', () => {
  it('is empty for all dates', () => {
    expect(dateRange('', {}, now)).toEqual({})
  })

  it('runs from the preset start through today', () => {
    expect(dateRange('today', {}, now)).toEqual({
      start_date: '2026-11-25',
      end_date: '2026-11-25',
    })
    expect(dateRange('week', {}, now)).toEqual({ start_date: '2026-11-18', end_date: '2026-11-25' })
    expect(dateRange('month', {}, now)).toEqual({
      start_date: '2026-10-25',
      end_date: '2026-11-25',
    })
  })

  it('takes the typed range when 2000-01-01 marks a specific date', () => {
    expect(dateRange('2000-01-01', { start: '2026-01-02', end: '' }, now)).toEqual({
      start_date: '2026-01-02',
      end_date: undefined,
    })
  })
})
