import type { Locale } from '../contract/locales'

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']
const RLM = '\u200f'
const two = (n: number) => String(n).padStart(2, '0')

/*
 * The texts `Intl.DateTimeFormat` writes for each language's locale (`INTL_LOCALES`), in the
 * device's time zone: `{ dateStyle: 'medium' }`, `{ timeStyle: 'short' }` and both (the unit
 * test holds them to it). Not Intl itself: a page's first Intl formatter loads the ICU data,
 * 20 to 35 ms of the main thread at once, before the first list with dates can paint
 * (docs/performance.md).
 */

/** The wall clock's reading of an instant, as `Date`'s local getters give it. */
export interface ClockReading {
  year: number
  /** 0 for January. */
  month: number
  day: number
  hours: number
  minutes: number
}

const deviceClock = (at: Date): ClockReading => ({
  year: at.getFullYear(),
  month: at.getMonth(),
  day: at.getDate(),
  hours: at.getHours(),
  minutes: at.getMinutes(),
})

let clock = deviceClock

/**
 * Reads instants with `reading` instead of the device's clock: the server renders a customer's
 * lists in the customer's time zone (src/entry-server.tsx). Without it, the device's again.
 */
export function readClockWith(reading?: (at: Date) => ClockReading): void {
  clock = reading ?? deviceClock
}

/** "Dec 3, 2026"; Arabic "03‏/12‏/2026" (right-to-left marks after the day and the month). */
export function formatDate(at: Date, locale: Locale): string {
  const { year, month, day } = clock(at)
  return locale === 'ar'
    ? `${two(day)}${RLM}/${two(month + 1)}${RLM}/${year}`
    : `${MONTHS[month]} ${day}, ${year}`
}

/** "7:05 AM"; Arabic "7:05 ص" (ص before noon, م after). */
export function formatTime(at: Date, locale: Locale): string {
  const { hours, minutes } = clock(at)
  const face = `${hours % 12 || 12}:${two(minutes)}`
  if (locale === 'ar') return `${face} ${hours < 12 ? 'ص' : 'م'}`
  return `${face} ${hours < 12 ? 'AM' : 'PM'}`
}

/** "Dec 3, 2026, 7:05 AM"; Arabic with the Arabic comma. */
export function formatDateTime(at: Date, locale: Locale): string {
  return `${formatDate(at, locale)}${locale === 'ar' ? '،' : ','} ${formatTime(at, locale)}`
}
