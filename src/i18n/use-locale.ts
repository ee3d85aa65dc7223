import { useSyncExternalStore } from 'react'
import { currentLocale, subscribeLocale } from './locale'

export function useLocale() {
  return useSyncExternalStore(subscribeLocale, currentLocale, currentLocale)
}
