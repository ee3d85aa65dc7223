import { useSyncExternalStore } from 'react'
import { TEXT_DIRECTIONS } from '../contract/locales'
import { currentLocale, subscribeLocale } from './locale'

export function useLocale() {
  return useSyncExternalStore(subscribeLocale, currentLocale, currentLocale)
}

/**
 * The text's direction in the language shown, for Radix's components that need it (its tabs'
 * arrow keys): given to each, there is no provider around the whole storefront to load.
 */
export function useDirection(): 'rtl' | 'ltr' {
  return TEXT_DIRECTIONS[useLocale()]
}
