import { DATE_RANGE_MARK } from '../contract/orders'

export type DatePreset = '' | 'today' | 'week' | 'month' | typeof DATE_RANGE_MARK

const iso = (date: Date) =>
  `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`

/**
 * The date filter of the orders and wallet pages: a preset becomes a start date (today, 7 or
 * 30 days back, through today); 2000-01-01 marks a range the customer types.
 */
export function dateRange(
  preset: DatePreset,
  custom: { start?: string; end?: string },
  now = new Date(),
): { start_date?: string; end_date?: string } {
  if (preset === DATE_RANGE_MARK)
    return { start_date: custom.start || undefined, end_date: custom.end || undefined }
  if (!preset) return {}
  const start = new Date(now)
  if (preset === 'week') start.setDate(start.getDate() - 7)
  if (preset === 'month') start.setMonth(start.getMonth() - 1)
  return { start_date: iso(start), end_date: iso(now) }
}
