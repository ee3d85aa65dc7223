import { expect, test, type Page } from '@playwright/test'
import { networkQuiet, operator, signedInCustomer } from './support'

/*
 * Phone first: at 390 x 844 and 320 x 640, in both languages, signed out and in, nothing
 * scrolls sideways, the navigation stays on one line, the bars keep to 120 px, and the
 * floating WhatsApp button never lies over a control or text.
 */

const PHONES = [
  { width: 390, height: 844 },
  { width: 320, height: 640 },
]

async function checkPage(page: Page, path: string, label: string) {
  // Opened afresh: a change of hash alone would leave the page before on screen until the
  // next one is ready, and its heading would pass for this page's.
  await page.goto('about:blank')
  await page.goto(`/#${path}`)
  await expect(page.locator('main h1, main h2').first()).toBeVisible()
  await networkQuiet(page)
  // Nothing wider than the screen.
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
    `${label}: scrolls sideways`,
  ).toBeLessThanOrEqual(0)
  // The navigation is one row: every link at the same height.
  const tops = await page
    .getByRole('navigation', { name: /^(Main|القائمة الرئيسية)$/ })
    .getByRole('link')
    .evaluateAll((links) =>
      links.filter((l) => l.getClientRects().length).map((l) => l.getBoundingClientRect().top),
    )
  expect(new Set(tops).size, `${label}: the navigation wraps`).toBe(1)
  await checkCurrentLink(page, label)
}

/** The bar's link to the page shown, if it has one, is wholly on screen (the row scrolls). */
async function checkCurrentLink(page: Page, label: string) {
  const current = page
    .getByRole('navigation', { name: /^(Main|القائمة الرئيسية)$/ })
    .locator('[aria-current="page"]')
  if (!(await current.count())) return
  const width = page.viewportSize()!.width
  await expect
    .poll(async () => {
      const box = (await current.boundingBox())!
      return box.x >= 0 && box.x + box.width <= width
    }, `${label}: the link to the page is cut off`)
    .toBe(true)
}

/** The WhatsApp button lies over no control and no text of `main`, wherever it is scrolled. */
async function checkWhatsApp(page: Page, label: string) {
  const button = page.getByRole('link', { name: /WhatsApp|واتساب/ }).last()
  await expect(button).toBeVisible()
  const covered = () =>
    page.evaluate(() => {
      const link = [...document.querySelectorAll('a[href*="wa.me"]')].pop()!
      const own = link.getBoundingClientRect()
      const hits = (r: DOMRect) =>
        r.width > 0 &&
        r.right > own.left &&
        r.left < own.right &&
        r.bottom > own.top &&
        r.top < own.bottom
      const found: string[] = []
      const main = document.querySelector('main')!
      for (const control of main.querySelectorAll('a, button, input, select, textarea, img'))
        if (hits(control.getBoundingClientRect())) found.push(control.outerHTML.slice(0, 80))
      const walker = document.createTreeWalker(main, NodeFilter.SHOW_TEXT)
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        if (!node.textContent?.trim()) continue
        const range = document.createRange()
        range.selectNodeContents(node)
        if ([...range.getClientRects()].some(hits)) found.push(node.textContent.trim())
      }
      return found
    })
  const end = await page.evaluate(() => document.documentElement.scrollHeight - innerHeight)
  for (const y of [0, Math.round(end / 3), Math.round((2 * end) / 3), end]) {
    await page.evaluate((top) => window.scrollTo(0, top), y)
    await expect.poll(covered, { message: `${label} at ${y}px` }).toEqual([])
  }
}

for (const language of ['en', 'ar'] as const) {
  test(`phone layout signed out, ${language}`, async ({ page }) => {
    test.slow()
    await page.addInitScript((lang) => localStorage.setItem('language', lang), language)
    for (const phone of PHONES) {
      await page.setViewportSize(phone)
      const at = `${phone.width}px ${language}`
      await checkPage(page, '/', `home ${at}`)
      const bars = await page
        .getByRole('navigation', { name: /^(Main|القائمة الرئيسية)$/ })
        .evaluate((nav) => nav.getBoundingClientRect().bottom)
      if (phone.width === 390) expect(bars, `the bars at ${at}`).toBeLessThanOrEqual(120)
      await checkPage(page, '/groups/1', `a group ${at}`)
      await checkPage(page, '/products/products-1/1', `a product ${at}`)
      await checkPage(page, '/products/products-1/packages/1', `a package form ${at}`)
      await checkWhatsApp(page, `a package form ${at}`)
      await checkPage(page, `/reset-password/${'x'.repeat(43)}`, `the reset link's page ${at}`)
      await checkWhatsApp(page, `the reset link's page ${at}`)
      await checkPage(page, '/sign-in', `sign-in ${at}`)
      // The closed country list says which country is picked, whole (it cut Arabic names).
      const country = page.getByRole('combobox', { name: /^(Country|الدولة)$/ })
      const shown = country.locator('xpath=preceding-sibling::*[1]/*[1]')
      await expect(shown).toHaveText('\u2066+961 LB\u2069')
      expect(
        await shown.evaluate((box) => box.scrollWidth - box.clientWidth),
        `the closed country list at ${at} cuts its text`,
      ).toBeLessThanOrEqual(0)
    }
  })

  test(`phone layout signed in, ${language}`, async ({ page, request }) => {
    test.slow()
    const customer = await signedInCustomer(page, request, { balance: '500' })
    const auth = { Authorization: `Bearer ${customer.token}` }
    await request.post(`/api/change/locale`, { headers: auth, multipart: { locale: language } })
    await page.addInitScript((lang) => localStorage.setItem('language', lang), language)
    // An order with long fields: a wallet address and a contact number.
    const placed = await request.post('/api/automated/get/packages', {
      headers: auth,
      multipart: {
        product_id: '24',
        qty: '150',
        wallet_address: 'TXaVeryLongWalletAddressThatMustWrapOnAPhone1234567890abcdef',
      },
    })
    const { data: order } = (await placed.json()) as { data: { id: number } }
    for (const phone of PHONES) {
      await page.setViewportSize(phone)
      const at = `${phone.width}px ${language}`
      await checkPage(page, '/', `home ${at}`)
      const bars = await page
        .getByRole('navigation', { name: /^(Main|القائمة الرئيسية)$/ })
        .evaluate((nav) => nav.getBoundingClientRect().bottom)
      if (phone.width === 390) expect(bars, `the bars at ${at}`).toBeLessThanOrEqual(120)
      await checkPage(page, '/products/products-1/1', `a product ${at}`)
      await checkPage(page, '/products/products-1/packages/1', `a package form ${at}`)
      await checkWhatsApp(page, `a package form ${at}`)
      await checkPage(page, '/Orders', `the orders ${at}`)
      await checkPage(page, `/Orders/${order.id}`, `an order ${at}`)
      await checkWhatsApp(page, `an order ${at}`)
      await checkPage(page, '/wallet', `the wallet ${at}`)
      await checkPage(page, '/charging-the-wallet', `the charging page ${at}`)
      // Gone to from another page, without loading again: its link is brought into view too.
      await checkPage(page, '/about-us', `about us ${at}`)
      await page.evaluate(() => (location.hash = '#/charging-the-wallet'))
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(
        /^(Charging the wallet|شحن المحفظة)$/,
      )
      await checkCurrentLink(page, `the charging page after about us ${at}`)
      await checkWhatsApp(page, `the charging page ${at}`)
      await checkPage(page, '/shipping-payments', `the shipping payments ${at}`)
      await checkPage(page, '/Notifications', `the notifications ${at}`)
      // The bell's popup stays on the screen.
      await page.getByRole('button', { name: /^(Notifications|الإشعارات)/ }).click()
      const popup = page.getByRole('banner').getByRole('region')
      await expect(popup).toBeVisible()
      const box = (await popup.boundingBox())!
      expect(box.x, `the bell's popup at ${at}`).toBeGreaterThanOrEqual(0)
      expect(box.x + box.width, `the bell's popup at ${at}`).toBeLessThanOrEqual(phone.width)
      await page.keyboard.press('Escape')
    }
  })
}

/**
 * What the WhatsApp button covers in `main` at every scroll position, two pixels apart (each
 * checked once the button has settled): a thin line of text between two of the points the
 * button looks at once slipped under it, on an order's Total at 320 px.
 */
function sweepWhatsApp(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    const frame = () => new Promise((resolve) => requestAnimationFrame(resolve))
    const link = [...document.querySelectorAll('a[href*="wa.me"]')].pop()!
    const main = document.querySelector('main')!
    const covered = () => {
      const own = link.getBoundingClientRect()
      const hits = (r: DOMRect) =>
        r.width > 0 &&
        r.right > own.left &&
        r.left < own.right &&
        r.bottom > own.top &&
        r.top < own.bottom
      for (const control of main.querySelectorAll('a, button, input, select, textarea, img'))
        if (hits(control.getBoundingClientRect())) return control.outerHTML.slice(0, 80)
      const walker = document.createTreeWalker(main, NodeFilter.SHOW_TEXT)
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        if (!node.textContent?.trim()) continue
        const range = document.createRange()
        range.selectNodeContents(node)
        if ([...range.getClientRects()].some(hits)) return node.textContent.trim()
      }
      return null
    }
    const found: string[] = []
    const end = document.documentElement.scrollHeight - innerHeight
    for (let y = 0; y <= end; y += 2) {
      window.scrollTo(0, y)
      // The scroll event, the button's check in the next frame, its render in the one after.
      for (let i = 0; i < 3; i++) await frame()
      const what = covered()
      if (what) found.push(`${y}px: ${what}`)
    }
    return found
  })
}

test('at 320 px the WhatsApp button covers nothing of an order at any scroll position', async ({
  page,
  request,
}) => {
  test.slow()
  const customer = await signedInCustomer(page, request)
  const placed = await request.post('/api/automated/get/packages', {
    headers: { Authorization: `Bearer ${customer.token}` },
    multipart: { product_id: '24', qty: '10', wallet_address: 'TXwhatsapp' },
  })
  const { data: order } = (await placed.json()) as { data: { id: number } }
  operator(
    'orders:complete',
    String(order.id),
    '--code',
    'WXYZ-1234-ABCD',
    '--note',
    'Redeem the code in the App Store within 12 months.',
  )
  await page.setViewportSize(PHONES[1]!)
  for (const language of ['en', 'ar'] as const) {
    await page.addInitScript((lang) => localStorage.setItem('language', lang), language)
    await page.goto('about:blank')
    await page.goto(`/#/Orders/${order.id}`)
    await expect(page.getByRole('link', { name: /WhatsApp|واتساب/ }).last()).toBeVisible()
    await networkQuiet(page)
    expect(await sweepWhatsApp(page), language).toEqual([])
  }
})

/** Records every layout shift of the pages opened next. */
const watchShifts = (page: Page) =>
  page.addInitScript(() => {
    const shifts: number[] = ((window as unknown as { shifts: number[] }).shifts = [])
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & { value: number })[])
        shifts.push(entry.value)
    }).observe({ type: 'layout-shift', buffered: true })
  })

/** The page's layout shifts so far, summed (its CLS, as one session window at most). */
const totalShift = (page: Page) =>
  page.evaluate(() =>
    (window as unknown as { shifts: number[] }).shifts.reduce((sum, value) => sum + value, 0),
  )

test('a first load does not shift as its content arrives', async ({ page }) => {
  await page.setViewportSize(PHONES[0]!)
  await watchShifts(page)
  for (const path of ['/', '/products/products-1/1', '/products/products-1/packages/1']) {
    await page.goto('about:blank')
    await page.goto(`/#${path}`)
    await expect(page.locator('main h1, main h2').first()).toBeVisible()
    await networkQuiet(page)
    const shift = await totalShift(page)
    expect(shift, `layout shift of ${path}`).toBeLessThan(0.02)
  }
})

test('a signed-in first load of the wallet does not shift when its reply comes late', async ({
  page,
  request,
}) => {
  await signedInCustomer(page, request, { balance: '25' })
  await page.setViewportSize(PHONES[0]!)
  await watchShifts(page)
  // A slow network: the balance and the lines arrive well after the page is painted.
  await page.route('**/api/payment-logs*', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 1500))
    await route.continue()
  })
  await page.goto('about:blank')
  await page.goto('/#/wallet')
  await expect(page.getByRole('heading', { name: 'Wallet' })).toBeVisible()
  await expect(page.getByText('25.00 $').first()).toBeVisible()
  await networkQuiet(page)
  const shift = await totalShift(page)
  expect(shift, 'layout shift of the wallet').toBeLessThan(0.02)
})
