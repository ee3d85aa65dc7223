import { expect, test } from '@playwright/test'
import { openDatabase, signedInCustomer, storefrontSettled, switchToArabic } from './support'

interface WebsiteInfo {
  primary_color: string
  website_name: string
  icon_url: string
}

function rgb(hex: string): string {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16))
  return `rgb(${r}, ${g}, ${b})`
}

test('the shell takes its colours, title and icon from the server', async ({ page, request }) => {
  const reply = await request.get('/api/website/info')
  const info = JSON.parse(
    ((await reply.json()) as { website_info: string }).website_info,
  ) as WebsiteInfo
  // The store's icon comes with the page, as a PNG (a drawing would cost the page a document of
  // its own to draw), and the storefront leaves it be (each change of the link has the browser
  // fetch an icon again).
  const icon = `${info.icon_url}?w=64`
  expect(await (await request.get('/')).text()).toContain(`<link rel="icon" href="${icon}">`)
  expect((await request.get(icon)).headers()['content-type']).toBe('image/png')
  await page.addInitScript(() => {
    const changes: string[] = []
    ;(window as unknown as { iconChanges: string[] }).iconChanges = changes
    new MutationObserver((records) => {
      for (const record of records)
        if ((record.target as Element).matches('link[rel~="icon"]')) changes.push(record.type)
    }).observe(document, { subtree: true, childList: true, attributes: true })
  })

  await page.goto('/')
  await expect(page).toHaveTitle(info.website_name)
  await storefrontSettled(page)
  await expect(page.locator('link[rel="icon"]')).toHaveAttribute('href', icon)
  await expect(page.locator('link[rel~="icon"]')).toHaveCount(1)
  expect(
    await page.evaluate(() => (window as unknown as { iconChanges: string[] }).iconChanges),
  ).toEqual([])
  const banner = page.getByRole('banner')
  await expect(banner).toHaveCSS('background-color', rgb(info.primary_color))
  await expect(page.getByRole('link', { name: 'Home' }).first()).toBeVisible()
  await expect(page.getByRole('link', { name: 'Sign in' }).first()).toBeVisible()
  await expect(page.getByRole('link', { name: 'Sign up' }).first()).toBeVisible()
  await expect(page.getByRole('link', { name: 'Chat with us on WhatsApp' })).toHaveAttribute(
    'href',
    /^https:\/\/wa\.me\/\d+$/,
  )
})

test('Arabic turns the page right-to-left and survives a reload', async ({ page }) => {
  await page.goto('/#/about-us')
  await switchToArabic(page)
  await expect(page.locator('html')).toHaveAttribute('lang', 'ar')
  await expect(page.getByRole('heading', { name: 'من نحن' })).toBeVisible()
  await expect(page.getByRole('link', { name: 'الرئيسية' }).first()).toBeVisible()

  await page.reload()
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl')
  await expect(page.getByRole('heading', { name: 'من نحن' })).toBeVisible()
  await expect.poll(() => page.evaluate(() => localStorage.getItem('language'))).toBe('ar')

  await page.getByRole('button', { name: 'English' }).click()
  await expect(page.locator('html')).toHaveAttribute('dir', 'ltr')
  await expect(page.getByRole('heading', { name: 'About us' })).toBeVisible()
})

test.describe(() => {
  // The account bar's file is held below; the service worker would answer from its own.
  test.use({ serviceWorkers: 'block' })

  test('Arabic picked before the account bar is there stays, and is saved to the profile', async ({
    page,
    request,
  }) => {
    const customer = await signedInCustomer(page, request)
    let release = () => {}
    const picked = new Promise<void>((resolve) => (release = resolve))
    await page.route(/\/assets\/account-bar-[^/]*\.js$/, async (route) => {
      await picked
      await route.continue()
    })
    await page.goto('/')
    await switchToArabic(page)
    release()
    // The profile still says English; the language picked now wins and goes to the server.
    await page.getByRole('button', { name: new RegExp(customer.username) }).click()
    await expect(page.getByRole('button', { name: 'رمز API' })).toBeVisible()
    await expect(page.locator('html')).toHaveAttribute('dir', 'rtl')
    await expect
      .poll(() => {
        const db = openDatabase()
        try {
          return db.prepare('select locale from users where username = ?').get(customer.username)
        } finally {
          db.close()
        }
      })
      .toEqual({ locale: 'ar' })
  })

  test('Arabic picked in another tab while this one starts is not undone by it', async ({
    page,
    context,
  }) => {
    // This tab has read the stored language (English) and waits for its messages.
    let asked = () => {}
    const waiting = new Promise<void>((resolve) => (asked = resolve))
    let release = () => {}
    const picked = new Promise<void>((resolve) => (release = resolve))
    await page.route(/\/assets\/messages\.po_first-[^/]*\.js$/, async (route) => {
      // The storefront's own load, not the prefetch made while the customer reads (routing
      // turns the browser's cache off: the storefront asks again).
      if (route.request().resourceType() !== 'script') return route.continue()
      asked()
      await picked
      await route.continue()
    })
    // The held file could hold the page's load event too.
    await page.goto('/', { waitUntil: 'commit' })
    await waiting
    const other = await context.newPage()
    await other.goto('/#/about-us')
    await switchToArabic(other)
    release()
    await storefrontSettled(page)
    await page.reload()
    await expect(page.getByRole('list', { name: 'المنتجات' }).getByRole('listitem')).toHaveCount(15)
  })
})

test('the contact form keeps what was typed on a bad submit and stores a good one', async ({
  page,
}) => {
  await page.goto('/#/Contact-us')
  await expect(page.getByRole('heading', { name: 'Contact us' })).toBeVisible()
  await expect(page.getByText(/@/).first()).toBeVisible()

  const name = `Visitor ${Date.now()}`
  await page.getByLabel('Name').fill(name)
  await page.getByLabel('Message').fill('Where is my order?')
  await page.getByRole('button', { name: 'Send' }).click()
  await expect(page.getByRole('alert')).toHaveText('Phone number field is required')
  await expect(page.getByLabel('Name')).toHaveValue(name)
  await expect(page.getByLabel('Message')).toHaveValue('Where is my order?')

  await page.getByLabel('Phone number').fill('+961 70 123 456')
  await page.getByRole('button', { name: 'Send' }).click()
  await expect(page.getByText('Your message has been sent. Thank you!')).toBeVisible()
  await expect(page.getByLabel('Name')).toHaveValue('')

  const db = openDatabase()
  try {
    const row = db
      .prepare('select name, phone_number, message from messages where name = ?')
      .get(name)
    expect(row).toEqual({ name, phone_number: '+961 70 123 456', message: 'Where is my order?' })
  } finally {
    db.close()
  }
})

test('the contact form answers in Arabic', async ({ page }) => {
  await page.goto('/#/contact-us')
  await switchToArabic(page)
  await page.getByRole('button', { name: 'إرسال' }).click()
  await expect(page.getByRole('alert')).toHaveText('حقل الاسم مطلوب')
})

test.describe("when the contact form's checks cannot load", () => {
  // The page's own requests: the worker would serve the file from its cache.
  test.use({ serviceWorkers: 'block' })

  test('the form says so and keeps what was typed', async ({ page }) => {
    // The schemas' library, which the form loads at its first send (as when the connection
    // drops before the service worker has it).
    await page.route(/\/assets\/valibot-[\w-]+\.js$/, (route) =>
      route.abort('internetdisconnected'),
    )
    await page.goto('/#/contact-us')
    await page.getByLabel('Name').fill('Visitor')
    await page.getByLabel('Message').fill('Where is my order?')
    await page.getByRole('button', { name: 'Send' }).click()
    await expect(page.locator('#contact-error')).toHaveText(
      'Error fetching data. Please check your connection and try again.',
    )
    await expect(page.getByLabel('Name')).toHaveValue('Visitor')
    await expect(page.getByLabel('Message')).toHaveValue('Where is my order?')
  })
})

test('search submits only a non-empty query', async ({ page }) => {
  await page.goto('/')
  const box = page.getByRole('searchbox', { name: 'Search products' })
  await box.fill('   ')
  await box.press('Enter')
  await expect(box).toBeFocused()
  expect(page.url()).not.toContain('search')
  await box.fill('pubg')
  await page.getByRole('button', { name: 'Search', exact: true }).click()
  await expect(page).toHaveURL(/#\/search\?q=pubg&page=1$/)
})

test('unknown pages, /403 and scrolling to the top', async ({ page }) => {
  await page.goto('/#/no-such-page')
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible()
  await page.goto('/#/403')
  await expect(page.getByRole('heading', { name: 'Access denied' })).toBeVisible()

  await page.setViewportSize({ width: 400, height: 500 })
  await page.goto('/#/contact-us')
  await expect(page.getByRole('heading', { name: 'Contact information' })).toBeVisible()
  // The footer arrives after the page: its link, not the top bar's, is the one to scroll to.
  const footerLink = page.getByRole('contentinfo').getByRole('link', { name: 'About us' })
  await footerLink.scrollIntoViewIfNeeded()
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(0)
  await footerLink.click()
  await expect(page.getByRole('heading', { name: 'About us' })).toBeVisible()
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0)
})

test('a piece of the shell that cannot load leaves the page working', async ({ page }) => {
  // As when the connection drops before the service worker has these files: the footer's code
  // and the service worker's registration never arrive, and the page around them must not fall
  // over.
  await page.route(/\/assets\/(footer|service-worker)-[\w-]+\.js$/, (route) =>
    route.abort('internetdisconnected'),
  )
  const failed = (name: string) =>
    page.waitForEvent('requestfailed', (r) => r.url().includes(`/assets/${name}-`))
  const footerFailed = failed('footer')
  const workerFailed = failed('service-worker')
  await page.goto('/#/products/products-4/packages/119')
  await footerFailed
  await page.getByRole('button', { name: 'Buy', exact: true }).click()
  await expect(page.getByRole('dialog')).toContainText('you have to sign in')
  await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click()
  await workerFailed
  await expect(page.getByRole('button', { name: 'Buy', exact: true })).toBeVisible()
  // The footer stays as the server made it, and its links work.
  await page.getByRole('contentinfo').getByRole('link', { name: 'About us' }).click()
  await expect(page.getByRole('heading', { name: 'About us' })).toBeVisible()
})
