import { expect, test, type APIRequestContext, type Page } from '@playwright/test'
import { audit, signedInCustomer } from './support'

/*
 * axe-core (WCAG 2 A/AA and 2.1 A/AA) finds no serious or critical problem on any screen a
 * customer uses, signed out and signed in, in both languages, with the dialogs open too.
 */

async function visit(page: Page, path: string, language: string) {
  await page.goto(`/#${path}`)
  await expect(page.locator('html')).toHaveAttribute('lang', language)
  await expect(page.locator('main h1, main h2').first()).toBeVisible()
  await audit(page, `${path} in ${language}`)
}

const PUBLIC = [
  '/',
  '/about-us',
  '/contact-us',
  '/search?q=card&page=1',
  '/search?q=zzzz&page=1',
  '/groups/2',
  '/products/products-1/1',
  '/products/products-1/packages/1',
  '/products/products-2/17',
  '/products/products-4/packages/119',
  '/403',
  '/no-such-page',
]
const GUEST = ['/sign-in', '/sign-up', '/forget-password', `/reset-password/${'x'.repeat(43)}`]
const CUSTOMER = [
  '/Orders',
  '/wallet',
  '/charging-the-wallet',
  '/shipping-payments',
  '/Notifications',
]

/** Pages in groups of a few, so each journey stays short and the two workers share them. */
function groups<T>(items: T[], size = 4): T[][] {
  return Array.from({ length: Math.ceil(items.length / size) }, (_, i) =>
    items.slice(i * size, (i + 1) * size),
  )
}

async function customerIn(page: Page, request: APIRequestContext, language: string) {
  const customer = await signedInCustomer(page, request, { balance: '100' })
  const auth = { Authorization: `Bearer ${customer.token}` }
  await request.post('/api/change/locale', { headers: auth, multipart: { locale: language } })
  await page.addInitScript((lang) => localStorage.setItem('language', lang), language)
  return { ...customer, auth }
}

/** The unavailable product dialog's title. */
const UNAVAILABLE = { en: 'Unavailable', ar: 'غير متوفر' }

for (const language of ['en', 'ar'] as const) {
  for (const [index, paths] of groups([...PUBLIC, ...GUEST]).entries()) {
    test(`no serious accessibility problem signed out, ${language}, pages ${index + 1}`, async ({
      page,
    }) => {
      test.slow()
      await page.addInitScript((lang) => localStorage.setItem('language', lang), language)
      for (const path of paths) await visit(page, path, language)
    })
  }

  for (const [index, paths] of groups([...PUBLIC, ...CUSTOMER]).entries()) {
    test(`no serious accessibility problem signed in, ${language}, pages ${index + 1}`, async ({
      page,
      request,
    }) => {
      test.slow()
      await customerIn(page, request, language)
      for (const path of paths) await visit(page, path, language)
    })
  }

  test(`no serious accessibility problem at phone widths, ${language}`, async ({
    page,
    request,
  }) => {
    test.slow()
    // The shell changes at phone widths (short names, an icon menu): signed out, then in.
    for (const width of [390, 320]) {
      await page.setViewportSize({ width, height: 800 })
      await page.addInitScript((lang) => localStorage.setItem('language', lang), language)
      await visit(page, '/', language)
      await visit(page, '/sign-in', language)
    }
    await customerIn(page, request, language)
    for (const width of [390, 320]) {
      await page.setViewportSize({ width, height: 800 })
      await visit(page, '/Orders', language)
    }
  })

  test(`no serious accessibility problem in the signed-out dialogs, ${language}`, async ({
    page,
  }) => {
    test.slow()
    // The sign-in dialog, and a product that cannot be bought.
    await page.addInitScript((lang) => localStorage.setItem('language', lang), language)
    await page.goto('/#/products/products-4/packages/119')
    await page.getByRole('button', { name: /^(Buy|شراء)$/ }).click()
    await expect(page.getByRole('dialog')).toBeVisible()
    await audit(page, `the sign-in dialog in ${language}`)
    await page.goto('/#/products/products-4/43')
    // This dialog, not the sign-in one still closing: audited only once it is the one shown.
    const unavailable = page.getByRole('dialog', { name: UNAVAILABLE[language] })
    await expect(unavailable).toBeVisible()
    await expect(page.getByRole('dialog')).toHaveCount(1)
    await audit(page, `the unavailable dialog in ${language}`)
  })

  test(`no serious accessibility problem in an order and the signed-in dialogs, ${language}`, async ({
    page,
    request,
  }) => {
    test.slow()
    const customer = await customerIn(page, request, language)
    const placed = await request.post('/api/automated/get/packages', {
      headers: customer.auth,
      multipart: { product_id: '24', qty: '10', wallet_address: 'TXaccessible' },
    })
    const { data: order } = (await placed.json()) as { data: { id: number } }
    await visit(page, `/Orders/${order.id}`, language)
    // The order confirmation, the account menu and the log-out question.
    await page.goto('/#/products/products-4/packages/119')
    await page.getByRole('textbox').nth(1).fill('998877')
    await page.getByRole('textbox').nth(2).fill('2001')
    await page.getByRole('button', { name: /^(Buy|شراء)$/ }).click()
    await expect(page.getByRole('dialog')).toBeVisible()
    await audit(page, `the order confirmation in ${language}`)
    await page.keyboard.press('Escape')
    await page.getByRole('button', { name: /^(Notifications|الإشعارات)/ }).click()
    await expect(page.getByRole('banner').getByRole('region')).toBeVisible()
    await audit(page, `the notifications popup in ${language}`)
    await page.keyboard.press('Escape')
    await page.getByRole('button', { name: new RegExp(customer.username) }).click()
    await audit(page, `the account menu in ${language}`)
    // The API token dialog, and its whitelist with a line it refuses.
    await page.getByRole('button', { name: /^(API token|رمز API)$/ }).click()
    const tokenDialog = page.getByRole('dialog')
    await expect(tokenDialog.getByRole('textbox').first()).toHaveValue(/^4412\|/)
    await audit(page, `the API token dialog in ${language}`)
    await tokenDialog.getByRole('textbox').nth(1).fill('203.0.113.7\nnot-an-address')
    await tokenDialog.getByRole('button', { name: /^(Save|حفظ)$/ }).click()
    await expect(tokenDialog.getByRole('alert')).toBeVisible()
    await audit(page, `the API token dialog with a bad line in ${language}`)
    await page.keyboard.press('Escape')
    await expect(tokenDialog).toBeHidden()
    await page.getByRole('button', { name: new RegExp(customer.username) }).click()
    await page.getByRole('button', { name: /^(Log out|تسجيل الخروج)$/ }).click()
    await expect(page.getByRole('dialog')).toBeVisible()
    await audit(page, `the log-out question in ${language}`)
  })
}
