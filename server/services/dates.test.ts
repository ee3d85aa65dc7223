import { describe, expect, it } from 'vitest'
import { dayOf, dayRange, dayStart, isTimeZone, localDateTime } from './dates'

describe('days in the store time zone', () => {
  it('reads the days filters send, and only real days in sensible years', () => {
    expect(dayOf('2026-03-01')).toBe('2026-03-01')
    expect(dayOf('2026-03-01 00:00:00')).toBe('2026-03-01')
    expect(dayOf('2026-02-30')).toBeUndefined()
    expect(dayOf('9999-12-31')).toBeUndefined()
    expect(dayOf('1999-12-31')).toBeUndefined()
    expect(dayOf('tomorrow')).toBeUndefined()
  })

  it('starts a Beirut day at 22:00 UTC in winter and 21:00 UTC in summer', () => {
    expect(dayStart('2026-01-15', 'Asia/Beirut')).toBe('2026-01-14T22:00:00.000Z')
    expect(dayStart('2026-07-15', 'Asia/Beirut')).toBe('2026-07-14T21:00:00.000Z')
    expect(dayStart('2026-07-15', 'UTC')).toBe('2026-07-15T00:00:00.000Z')
  })

  it('puts an order placed at 00:30 in Beirut on that Beirut day', () => {
    const placed = '2026-01-14T22:30:00.000Z' // 00:30 on 15 January in Beirut
    expect(localDateTime(placed, 'Asia/Beirut')).toEqual({ date: '2026-01-15', time: '00:30' })
    const { from, to } = dayRange(
      { start_date: '2026-01-15 00:00:00', end_date: '2026-01-15 00:00:00' },
      'Asia/Beirut',
    )
    expect(from! <= placed && placed < to!).toBe(true)
  })

  it('leaves out a bound that is no day', () => {
    expect(dayRange({ end_date: '9999-12-31' }, 'Asia/Beirut')).toEqual({
      from: undefined,
      to: undefined,
    })
  })

  it('knows which time zones exist', () => {
    expect(isTimeZone('Asia/Beirut')).toBe(true)
    expect(isTimeZone('Mars/Olympus')).toBe(false)
  })
})
