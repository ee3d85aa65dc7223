import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/min'

export const DEFAULT_COUNTRY: CountryCode = 'LB'
/** DEFAULT_COUNTRY's calling code, for a phone field shown before the country list loads. */
export const DEFAULT_CALLING_CODE = '961'

/**
 * A phone number as the store keeps it: E.164, with a leading +. Numbers are prefixed with +
 * and the digits 9610 become 961 (Lebanese numbers typed with the trunk 0).
 * Returns null when the number is not a valid number of its country.
 */
export function normalisePhone(
  input: string,
  country: CountryCode = DEFAULT_COUNTRY,
): string | null {
  let text = input.replace(/[\s().-]/g, '')
  if (!text) return null
  if (text.startsWith('00')) text = `+${text.slice(2)}`
  if (!text.startsWith('+') && text.startsWith('961') && text.length > 9) text = `+${text}`
  if (text.startsWith('+9610')) text = `+961${text.slice(5)}`
  if (!/^\+?\d+$/.test(text)) return null
  const parsed = parsePhoneNumberFromString(text, text.startsWith('+') ? undefined : country)
  return parsed?.isValid() ? parsed.number : null
}
