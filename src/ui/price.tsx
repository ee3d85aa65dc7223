import type { Currency } from '../contract/profile'
import { formatMoney, toMicros } from '../domain/money'
import { useLocale } from '../i18n/use-locale'

/**
 * An amount in its currency, formatted for the customer's language; isolated (bdi) so its
 * digits and sign keep their order inside Arabic text.
 */
export function Price({
  amount,
  currency,
  className,
}: {
  /** Micro-units, or a decimal as the API sends it. */
  amount: bigint | number
  currency: Currency
  className?: string
}) {
  const locale = useLocale()
  const micros = typeof amount === 'bigint' ? amount : toMicros(amount)
  return <bdi className={className}>{formatMoney(micros, currency, locale)}</bdi>
}
