import { DATE_RANGE_MARK } from '../contract/constants'

export type DatePreset = '' | 'today' | 'week' | 'month' | typeof DATE_RANGE_MARK

/** `YYYY-MM-DD` of a day counted in UTC (the calendar arithmetic below). */
const iso = (day: Date) => day.toISOString().slice(0, 10)

/**
 * Today's date in the time zone given, or the device's when none is given or the name is not
 * one this browser knows, as a day counted in UTC.
 */
function today(now: Date, timeZone: string | undefined): Date {
  const parts = (zone: string | undefined) =>
    new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
    }).formatToParts(now)
  let found
  try {
    found = parts(timeZone)
  } catch {
    found = parts(undefined)
  }
  const part = (type: string) => Number(found.find((p) => p.type === type)!.value)
  return new Date(Date.UTC(part('year'), part('month') - 1, part('day')))
}

/**
 * The date filter of the orders and wallet pages: a preset becomes a start date (today, 7 or
 * 30 days back, through today); 2000-01-01 marks a range the customer types. The server reads
 * the days in the store's time zone (`time_zone` of the website info), so "today" is the
 * store's: a customer whose device is in another zone, or past midnight there, still gets the
 * orders of the store's day.
 */
export function dateRange(
  preset: DatePreset,
  custom: { start?: string; end?: string },
  { now = new Date(), timeZone }: { now?: Date; timeZone?: string | null } = {},
): { start_date?: string; end_date?: string } {
  if (preset === DATE_RANGE_MARK)
    return { start_date: custom.start || undefined, end_date: custom.end || undefined }
  if (!preset) return {}
  const end = today(now, timeZone ?? undefined)
  const start = new Date(end)
  if (preset === 'week') start.setUTCDate(start.getUTCDate() - 7)
  if (preset === 'month') start.setUTCMonth(start.getUTCMonth() - 1)
  return { start_date: iso(start), end_date: iso(end) }
}
