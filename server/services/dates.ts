/*
 * Days as the store's customers live them. Times are stored as UTC instants; a day named in a
 * filter ("today", 2026-03-01) is a day in the store's time zone (STORE_TIMEZONE), so an
 * order placed at 00:30 in Beirut belongs to that Beirut day, not to the UTC day before.
 */

const DAY = /^(\d{4})-(\d{2})-(\d{2})(?:[ T+]\d{2}:\d{2}(?::\d{2})?)?$/
/** Days outside these years are not a bound anyone means: they are read as no bound. */
const FIRST_YEAR = 2000
const LAST_YEAR = 2999

/** 'YYYY-MM-DD' or 'YYYY-MM-DD 00:00:00' to the day it names, if it is a real day. */
export function dayOf(text: string | undefined): string | undefined {
  const match = DAY.exec(text?.trim() ?? '')
  if (!match) return undefined
  const year = Number(match[1])
  if (year < FIRST_YEAR || year > LAST_YEAR) return undefined
  const day = `${match[1]}-${match[2]}-${match[3]}`
  const date = new Date(`${day}T00:00:00.000Z`)
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(day) ? day : undefined
}

const formatters = new Map<string, Intl.DateTimeFormat>()
function partsIn(timeZone: string, at: Date) {
  let format = formatters.get(timeZone)
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    })
    formatters.set(timeZone, format)
  }
  const parts = Object.fromEntries(format.formatToParts(at).map((p) => [p.type, p.value]))
  return {
    date: `${parts.year}-${parts.month}-${parts.day}`,
    time: `${parts.hour}:${parts.minute}`,
    seconds: parts.second ?? '00',
  }
}

/** Whether the runtime knows this IANA time zone. */
export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: name })
    return true
  } catch {
    return false
  }
}

/** The date and the time (HH:MM) an instant shows in a time zone. */
export function localDateTime(at: Date | string, timeZone: string): { date: string; time: string } {
  const instant = typeof at === 'string' ? new Date(at) : at
  // Replies show minutes, and offsets in use today are whole minutes: the last minute asked in
  // each zone is kept, as orders placed together all show the same one.
  const minute = Math.floor(instant.getTime() / 60_000)
  const last = lastMinute.get(timeZone)
  if (last?.minute === minute) return { ...last.shown }
  const { date, time } = partsIn(timeZone, instant)
  const shown = { date, time }
  if (!Number.isNaN(minute)) lastMinute.set(timeZone, { minute, shown })
  return { ...shown }
}

const lastMinute = new Map<string, { minute: number; shown: { date: string; time: string } }>()

/** How far a time zone is ahead of UTC at an instant, in milliseconds. */
function offsetAt(timeZone: string, at: Date): number {
  const { date, time, seconds } = partsIn(timeZone, at)
  return Date.parse(`${date}T${time}:${seconds}.000Z`) - Math.floor(at.getTime() / 1000) * 1000
}

/** The UTC instant (ISO text) at which a day begins in a time zone. */
export function dayStart(day: string, timeZone: string): string {
  const midnightUtc = Date.parse(`${day}T00:00:00.000Z`)
  // The offset at the guess, then at the corrected guess: exact across a DST change.
  let instant = midnightUtc - offsetAt(timeZone, new Date(midnightUtc))
  instant = midnightUtc - offsetAt(timeZone, new Date(instant))
  return new Date(instant).toISOString()
}

const nextDay = (day: string) =>
  new Date(Date.parse(`${day}T00:00:00.000Z`) + 86_400_000).toISOString().slice(0, 10)

/**
 * A list filter's `start_date` and `end_date` as a half-open range of stored UTC times: from
 * the start of the first day to the start of the day after the last, in the store's zone.
 */
export function dayRange(
  query: { start_date?: string; end_date?: string },
  timeZone: string,
): { from?: string; to?: string } {
  const start = dayOf(query.start_date)
  const end = dayOf(query.end_date)
  return {
    from: start && dayStart(start, timeZone),
    to: end && dayStart(nextDay(end), timeZone),
  }
}
