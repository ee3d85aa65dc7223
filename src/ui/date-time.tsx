import { useLingui } from '@lingui/react/macro'

/**
 * When something happened, in the customer's own time zone and language. Replies carry the
 * instant (`created_at`); a backend that sends only the store's date and time shows those.
 */
export function DateTime({ at, date, time }: { at?: string | null; date: string; time: string }) {
  const { i18n } = useLingui()
  const instant = at ? new Date(at) : null
  const text =
    instant && !Number.isNaN(instant.getTime())
      ? i18n.date(instant, { dateStyle: 'medium', timeStyle: 'short' })
      : `${date} ${time}`
  return <time dateTime={at ?? `${date}T${time}`}>{text}</time>
}
