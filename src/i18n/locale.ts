import { i18n, type Messages } from '@lingui/core'
import { LANGUAGE_COOKIE, LANGUAGE_KEY } from '../api/storage-keys'
import { keepPageCookie } from '../api/page-cookies'
import { INTL_LOCALES, TEXT_DIRECTIONS, type Locale } from '../contract/locales'
import { whenIdle } from '../ui/when-idle'

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

/**
 * The stored language in a cookie too, so the server sends home's first screen in it
 * (docs/api.md, The first screen); written only when it differs.
 */
function keepLanguageCookie(locale: Locale): void {
  try {
    keepPageCookie(LANGUAGE_COOKIE, locale)
  } catch {
    // Cookies refused: home comes in English first, then in the stored language.
  }
}

type Catalog = () => Promise<{ messages: Messages }>

const catalogs: Record<Locale, Catalog> = {
  en: () => import('../../locales/en/messages.po'),
  ar: () => import('../../locales/ar/messages.po'),
}

/**
 * Only the messages of home's first load (the build keeps those its first files use): a first
 * visit to home waits for these alone, and the rest follows with the first other page or lazy
 * piece (`wholeCatalogue`).
 */
const firstCatalogs: Record<Locale, Catalog> = {
  en: () => import('../../locales/en/messages.po?first'),
  ar: () => import('../../locales/ar/messages.po?first'),
}

/**
 * Adds messages to a language's catalogue. To the language shown they are added in place,
 * without Lingui's change event: they are texts of pieces not shown yet (what is on the page
 * came with the part loaded before it), and the event would re-render every text of the page
 * at once, in one long task on a slow phone (docs/architecture.md, The first load).
 */
export function addMessages(locale: Locale, messages: Messages): void {
  if (i18n.locale === locale) Object.assign(i18n.messages, messages)
  else i18n.load(locale, messages)
}

/** The languages whose whole catalogue is loaded, and those on their way. */
const whole = new Map<Locale, Promise<void>>()

function loadWhole(locale: Locale): Promise<void> {
  let loading = whole.get(locale)
  if (!loading) {
    loading = catalogs[locale]().then(
      ({ messages }) => addMessages(locale, messages),
      (error: unknown) => {
        // Offline before the service worker had it: the next page or piece asks again.
        whole.delete(locale)
        throw error
      },
    )
    whole.set(locale, loading)
  }
  return loading
}

const listeners = new Set<() => void>()

/**
 * Loads the catalogue, activates it, and turns the document to the language's direction. With
 * `firstOnly`, only home's first-load messages when the whole catalogue is not there yet. With
 * `store` false (the language read from storage at start), storage is left alone: writing it
 * back would undo a language picked meanwhile in another tab.
 */
export async function activateLocale(
  locale: Locale,
  { firstOnly = false, store = true } = {},
): Promise<void> {
  if (firstOnly && !whole.has(locale)) {
    const { messages } = await firstCatalogs[locale]()
    // Added to what is loaded (the whole catalogue may have come meanwhile: the same texts).
    i18n.load(locale, messages)
  } else await loadWhole(locale)
  i18n.activate(locale, INTL_LOCALES[locale])
  const root = document.documentElement
  root.lang = locale
  root.dir = TEXT_DIRECTIONS[locale]
  if (store) {
    try {
      localStorage.setItem(LANGUAGE_KEY, locale)
    } catch {
      // Private mode or full storage: the language still applies for this visit.
    }
  }
  // What is stored now (another tab may have picked since this one read it). At the start, once
  // the browser is idle: reading the cookies is a synchronous wait on the browser's cookie store.
  const keep = () => keepLanguageCookie(storedLocale())
  if (store) keep()
  else whenIdle(keep)
  listeners.forEach((listener) => listener())
}

/**
 * The current language's whole catalogue: what a page other than home, or a piece loaded after
 * the first paint, waits for before it shows (its messages may not be in the first part).
 */
export function wholeCatalogue(): Promise<void> {
  return loadWhole(currentLocale())
}

/**
 * The language shown, or before any is activated (the start, which activates the stored one
 * once its messages have loaded) the stored one: the calls a first page starts meanwhile ask
 * for its replies in the language it will show.
 */
export function currentLocale(): Locale {
  return isLocale(i18n.locale) ? i18n.locale : storedLocale()
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
