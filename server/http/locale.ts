import type { Locale } from '../../src/contract/common'
import { DEFAULT_LOCALE, isLocale } from '../i18n'

/** The storefront sends `local=en|ar` (see docs/api.md, Paths and language). */
export function localeFromUrl(url: string): Locale {
  const value = new URL(url).searchParams.get('local')?.toLowerCase()
  return isLocale(value) ? value : DEFAULT_LOCALE
}
