import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { expect, type Page } from '@playwright/test'

/** The SQLite file of the server under test (made fresh by playwright.config.ts). */
export function openDatabase(): DatabaseSync {
  const dir = process.env.E2E_DATA_DIR
  if (!dir) throw new Error('E2E_DATA_DIR is not set')
  return new DatabaseSync(join(dir, 'store.db'), { readOnly: true })
}

/** Waits until the service worker is active and controls the page. */
export async function waitForServiceWorker(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready
  })
  await page.waitForFunction(() => !!navigator.serviceWorker.controller, undefined, {
    timeout: 15_000,
  })
}

export async function switchToArabic(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'العربية' }).click()
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl')
}
