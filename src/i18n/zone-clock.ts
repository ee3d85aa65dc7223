import type { ClockReading } from './dates'

/**
 * The wall clock of `timeZone` (an IANA name, such as `Asia/Beirut`): what the device of a
 * customer in that zone reads for an instant. For the server, which renders a customer's lists
 * as the customer's own device will (src/entry-server.tsx). Throws a RangeError for a name the
 * runtime does not know.
 */
export function zoneClock(timeZone: string): (at: Date) => ClockReading {
  const format = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
  })
  return (at) => {
    const parts: Partial<Record<Intl.DateTimeFormatPartTypes, number>> = {}
    for (const { type, value } of format.formatToParts(at)) parts[type] = Number(value)
    return {
      year: parts.year!,
      month: parts.month! - 1,
      day: parts.day!,
      hours: parts.hour!,
      minutes: parts.minute!,
    }
  }
}
