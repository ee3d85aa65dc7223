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

/** "Dec 3, 2026"; Arabic "03‏/12‏/2026" (right-to-left marks after the day and the month). */
export function formatDate(at: Date, locale: Locale): string {
  return locale === 'ar'
    ? `${two(at.getDate())}${RLM}/${two(at.getMonth() + 1)}${RLM}/${at.getFullYear()}`
    : `${MONTHS[at.getMonth()]} ${at.getDate()}, ${at.getFullYear()}`
}

/** "7:05 AM"; Arabic "7:05 ص" (ص before noon, م after). */
export function formatTime(at: Date, locale: Locale): string {
  const hours = at.getHours()
  const clock = `${hours % 12 || 12}:${two(at.getMinutes())}`
  if (locale === 'ar') return `${clock} ${hours < 12 ? 'ص' : 'م'}`
  return `${clock} ${hours < 12 ? 'AM' : 'PM'}`
}

/** "Dec 3, 2026, 7:05 AM"; Arabic with the Arabic comma. */
export function formatDateTime(at: Date, locale: Locale): string {
  return `${formatDate(at, locale)}${locale === 'ar' ? '،' : ','} ${formatTime(at, locale)}`
}
