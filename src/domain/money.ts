import type { Currency } from '../contract/profile'

/** Money is held as integer micro-units: 1 USD (or 1 LBP) = 1,000,000. */
export const MICROS = 1_000_000

/**
 * A decimal (from the wire or a form) to micro-units, exactly: the digits are read as text, so
 * 0.1 + 0.2 never enters the ledger. Throws on anything that is not a plain decimal.
 */
export function toMicros(value: string | number): bigint {
  const text = typeof value === 'number' ? numberText(value) : value.trim()
  const match = /^(-)?(\d+)(?:\.(\d+))?$/.exec(text)
  if (!match) throw new RangeError(`Not an amount: ${String(value)}`)
  const [, sign, whole, fraction = ''] = match
  if (fraction.length > 6 && /[1-9]/.test(fraction.slice(6)))
    throw new RangeError(`More than 6 decimals: ${text}`)
  const micros = BigInt(whole!) * 1_000_000n + BigInt(fraction.slice(0, 6).padEnd(6, '0'))
  return sign ? -micros : micros
}

function numberText(value: number): string {
  if (!Number.isFinite(value)) throw new RangeError(`Not an amount: ${value}`)
  // toFixed(6) rounds the binary float to the nearest micro-unit, which is what a decimal meant.
  return value.toFixed(6)
}

/** Micro-units as a decimal string, exactly, without trailing zeros: 1820000n is "1.82". */
export function microsText(micros: bigint | number): string {
  const value = BigInt(micros)
  const abs = value < 0n ? -value : value
  const fraction = (abs % 1_000_000n).toString().padStart(6, '0').replace(/0+$/, '')
  const text = fraction ? `${abs / 1_000_000n}.${fraction}` : `${abs / 1_000_000n}`
  return value < 0n ? `-${text}` : text
}

/**
 * Micro-units to the decimal number sent on the wire: the nearest double to the exact
 * decimal, which JSON prints as that decimal (1.82, never 1.8199999999999998).
 */
export function fromMicros(micros: bigint | number): number {
  return Number(microsText(micros))
}

/**
 * USD shows 2 decimals, up to 6 when positive and below 0.01; other currencies
 * show whole numbers, rounded half away from zero. Both languages write Latin digits (see
 * `INTL_LOCALES`); Arabic marks a minus as left-to-right: the same text as `Intl.NumberFormat`
 * for those locales (its unit test holds it to that), made from the micro-units exactly. Not
 * Intl itself: a page's first number format loads the language's number data, about 13 ms of a
 * phone's main thread at once (docs/architecture.md).
 */
export function formatMoney(micros: bigint | number, currency: Currency, locale: string): string {
  const value = BigInt(micros)
  const small = currency === 'USD' && value > 0n && value < 10_000n
  const digits = currency === 'USD' ? 2 : 0
  const number = formatDecimal(value, small ? 2 : digits, small ? 6 : digits, locale === 'ar')
  return currency === 'USD' ? `${number} $` : `${number} LBP`
}

function formatDecimal(micros: bigint, minimum: number, maximum: number, arabic: boolean) {
  const abs = micros < 0n ? -micros : micros
  const step = 10n ** BigInt(6 - maximum)
  // Rounded to `maximum` decimals, half away from zero.
  const units = (abs + step / 2n) / step
  const scale = 10n ** BigInt(maximum)
  const whole = (units / scale).toString()
  // Exactly `maximum` digits (none for 0), less the trailing zeros beyond `minimum`.
  const fraction = (scale + (units % scale))
    .toString()
    .slice(1)
    .replace(new RegExp(`0{0,${maximum - minimum}}$`), '')
  const grouped = whole.replace(/\B(?=(\d{3})+$)/g, ',')
  const minus = micros < 0n ? (arabic ? '\u200e-' : '-') : ''
  return minus + grouped + (fraction && '.' + fraction)
}

/**
 * What a top-up of `value` credits after a tax of `percentage` %: value - value x tax / 100,
 * in micro-units, rounded down (the store never credits a fraction it did not receive).
 */
export function netOfTax(value: string | number | bigint, percentage: number): bigint {
  const micros = typeof value === 'bigint' ? value : toMicros(value)
  if (!percentage || percentage <= 0) return micros
  const tax = toMicros(percentage) // millionths of a percent
  return micros - (micros * tax + 100_000_000n - 1n) / 100_000_000n
}
