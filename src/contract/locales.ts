/**
 * The languages the store speaks, without the schema library: the storefront's first load
 * reads them (src/i18n/locale.ts), and the schemas come later (docs/architecture.md, The first
 * load). `LocaleSchema` (./common.ts) checks them on the wire.
 */
export const LOCALE_CODES = ['en', 'ar'] as const
export type Locale = (typeof LOCALE_CODES)[number]

/**
 * The `Intl` locale each language formats dates, times and numbers with. Arabic keeps Latin
 * digits, as customers in Lebanon write and read prices, phone numbers and codes: one digit
 * system on every screen, the same as the keyboard types (Intl alone gives some Arabic
 * locales Arabic-Indic digits).
 */
export const INTL_LOCALES = { en: 'en-US', ar: 'ar-u-nu-latn' } as const satisfies Record<
  Locale,
  string
>

/** Each language's text direction: the page's, and Radix's components' (their arrow keys). */
export const TEXT_DIRECTIONS = { en: 'ltr', ar: 'rtl' } as const satisfies Record<
  Locale,
  'ltr' | 'rtl'
>
