import type { Locale } from '../../src/contract/common'
import { DEFAULT_LOCALE, isLocale } from '../i18n'

/** The storefront sends `local=en|ar` on every call (spec section 7). */
export function localeFromUrl(url: string): Locale {
  const value = new URL(url).searchParams.get('local')?.toLowerCase()
  return isLocale(value) ? value : DEFAULT_LOCALE
}
