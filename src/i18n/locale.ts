import { i18n, type Messages } from '@lingui/core'
import type { Locale } from '../contract/common'

export const LANGUAGE_KEY = 'language'
export const LOCALES = { en: { rtl: false }, ar: { rtl: true } } as const satisfies Record<
  Locale,
  { rtl: boolean }
>

export function isLocale(value: unknown): value is Locale {
  return value === 'en' || value === 'ar'
}

/** The stored language, English when none or something unknown is stored. */
export function storedLocale(): Locale {
  try {
    const value = localStorage.getItem(LANGUAGE_KEY)
    return isLocale(value) ? value : 'en'
  } catch {
    return 'en'
  }
}

const catalogs: Record<Locale, () => Promise<{ messages: Messages }>> = {
  en: () => import('../../locales/en/messages.po'),
  ar: () => import('../../locales/ar/messages.po'),
}

const listeners = new Set<() => void>()

/** Loads the catalogue, activates it, and turns the document to the language's direction. */
export async function activateLocale(locale: Locale): Promise<void> {
  const { messages } = await catalogs[locale]()
  i18n.loadAndActivate({ locale, messages })
  const root = document.documentElement
  root.lang = locale
  root.dir = LOCALES[locale].rtl ? 'rtl' : 'ltr'
  try {
    localStorage.setItem(LANGUAGE_KEY, locale)
  } catch {
    // Private mode or full storage: the language still applies for this visit.
  }
  listeners.forEach((listener) => listener())
}

export function currentLocale(): Locale {
  return isLocale(i18n.locale) ? i18n.locale : 'en'
}

export function subscribeLocale(listener: () => void): () => void {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

const choiceListeners = new Set<(locale: Locale) => void>()
let picked: Locale | null = null

/** The language the customer picked in this visit, if any. */
export function pickedLocale(): Locale | null {
  return picked
}

/** The customer picked a language (not a restore from storage or from their profile). */
export async function chooseLocale(locale: Locale): Promise<void> {
  picked = locale
  await activateLocale(locale)
  choiceListeners.forEach((listener) => listener(locale))
}

export function onLocaleChosen(listener: (locale: Locale) => void): () => void {
  choiceListeners.add(listener)
  return () => choiceListeners.delete(listener)
}
