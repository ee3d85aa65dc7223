import { formatDate, formatTime } from '../i18n/dates'
import { useLocale } from '../i18n/use-locale'

const whole = { whiteSpace: 'nowrap' } as const

/**
 * When something happened, in the customer's own time zone and language. Replies carry the
 * instant (`created_at`); a backend that sends only the store's date and time shows those.
 * A narrow screen breaks the line between the date and the time, never inside either.
 */
export function DateTime({ at, date, time }: { at?: string | null; date: string; time: string }) {
  const locale = useLocale()
  const instant = at ? new Date(at) : null
  const known = instant && !Number.isNaN(instant.getTime())
  return (
    <time dateTime={at ?? `${date}T${time}`}>
      <span style={whole}>{known ? formatDate(instant, locale) : date}</span>{' '}
      <span style={whole}>{known ? formatTime(instant, locale) : time}</span>
    </time>
  )
}
