import { useEffect, useState } from 'react'
import type { Messages } from '@lingui/core'
import type { Locale } from '../../contract/locales'
import { addMessages } from '../../i18n/locale'
import { useLocale } from '../../i18n/use-locale'

/*
 * The console's texts are a catalogue of their own (lingui.config.ts), loaded with the
 * console: the storefront's pages never carry them in their first load.
 */
const catalogs: Record<Locale, () => Promise<{ messages: Messages }>> = {
  en: () => import('../../../locales/en/console.po'),
  ar: () => import('../../../locales/ar/console.po'),
}

const loaded = new Map<Locale, Promise<void>>()

function loadConsoleMessages(locale: Locale): Promise<void> {
  let loading = loaded.get(locale)
  if (!loading) {
    loading = catalogs[locale]().then(
      // Added to the language's messages: the storefront's stay.
      ({ messages }) => addMessages(locale, messages),
      (error: unknown) => {
        // Offline before the service worker had it: the next try asks again.
        loaded.delete(locale)
        throw error
      },
    )
    loaded.set(locale, loading)
  }
  return loading
}

/**
 * Whether the console's texts in the language shown are loaded (they are asked for when not),
 * and the error when they could not be, with a way to try again.
 */
export function useConsoleMessages(): { ready: boolean; error: Error | null; retry: () => void } {
  const locale = useLocale()
  const [state, setState] = useState<{ locale: Locale | null; error: Error | null }>({
    locale: null,
    error: null,
  })
  const [attempt, setAttempt] = useState(0)
  useEffect(() => {
    let live = true
    loadConsoleMessages(locale).then(
      () => live && setState({ locale, error: null }),
      (error: unknown) =>
        live &&
        setState({
          locale: null,
          error: error instanceof Error ? error : new Error(String(error)),
        }),
    )
    return () => {
      live = false
    }
  }, [locale, attempt])
  return {
    ready: state.locale === locale,
    error: state.error,
    retry: () => setAttempt((n) => n + 1),
  }
}
