import { t } from '@lingui/core/macro'
import { afterEach, describe, expect, it } from 'vitest'
import { LANGUAGE_KEY } from '../api/storage-keys'
import { activateLocale, currentLocale, storedLocale, subscribeLocale } from './locale'

describe('language', () => {
  afterEach(async () => {
    await activateLocale('en')
    localStorage.clear()
  })

  it('is English when nothing or something unknown is stored', () => {
    localStorage.clear()
    expect(storedLocale()).toBe('en')
    localStorage.setItem(LANGUAGE_KEY, 'fr')
    expect(storedLocale()).toBe('en')
  })

  it('switching to Arabic turns the page right-to-left, translates and is remembered', async () => {
    let notified = 0
    const unsubscribe = subscribeLocale(() => notified++)
    await activateLocale('ar')
    unsubscribe()
    expect(document.documentElement.dir).toBe('rtl')
    expect(document.documentElement.lang).toBe('ar')
    expect(localStorage.getItem(LANGUAGE_KEY)).toBe('ar')
    expect(storedLocale()).toBe('ar')
    expect(currentLocale()).toBe('ar')
    expect(notified).toBe(1)
    expect(t`You are offline!`).toBe('أنت غير متصل بالإنترنت!')
  })

  it('switching back to English turns the page left-to-right', async () => {
    await activateLocale('ar')
    await activateLocale('en')
    expect(document.documentElement.dir).toBe('ltr')
    expect(document.documentElement.lang).toBe('en')
    expect(localStorage.getItem(LANGUAGE_KEY)).toBe('en')
  })
})
