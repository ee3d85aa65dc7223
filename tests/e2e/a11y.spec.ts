import AxeBuilder from '@axe-core/playwright'
import { expect, test } from '@playwright/test'

for (const language of ['en', 'ar'] as const) {
  for (const path of ['/', '/about-us', '/contact-us']) {
    test(`no serious accessibility problem on ${path} in ${language}`, async ({ page }) => {
      await page.addInitScript((lang) => localStorage.setItem('language', lang), language)
      await page.goto(`/#${path}`)
      await expect(page.locator('html')).toHaveAttribute('lang', language)
      await expect(page.getByRole('contentinfo')).toBeVisible()
      await page.waitForLoadState('networkidle')
      const results = await new AxeBuilder({ page }).analyze()
      const serious = results.violations.filter(
        (v) => v.impact === 'serious' || v.impact === 'critical',
      )
      expect(
        serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
      ).toEqual([])
    })
  }
}
