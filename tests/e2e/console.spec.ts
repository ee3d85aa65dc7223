import { expect, test, type Page } from '@playwright/test'
import { consoleAccount, operatorPhone, PHONE, sendReceipt, signIn } from './console-support'
import { audit, placeOrder, signedInCustomer, switchToArabic } from './support'

test.use({ viewport: PHONE })

/** Opens the customer's receipt in the queue (other journeys' receipts may come first). */
async function openReceipt(page: Page, id: number, username: string) {
  await page.getByRole('link', { name: /Top-ups waiting/ }).click()
  const heading = page.getByRole('heading', { name: new RegExp(`^Top-up #${id}:`) })
  await expect(
    heading.or(page.getByRole('button', { name: `Open top-up #${id} of ${username}` })),
  ).toBeVisible()
  if (!(await heading.isVisible())) {
    await page.getByRole('button', { name: `Open top-up #${id} of ${username}` }).click()
    // The receipt opened takes the focus, for the keyboard and the screen reader.
    await expect(heading).toBeFocused()
  }
  return heading
}

test('an operator signs in with the authenticator and approves a receipt the customer then sees', async ({
  page,
  request,
  browser,
}) => {
  const customer = await signedInCustomer(page, request, { balance: '10' })
  const id = await sendReceipt(page, 'Whish Money', '50')
  // The customer, signed in to the store, gets the console's own sign-in and nothing more.
  await page.goto('/#/admin')
  await expect(page.getByRole('heading', { name: 'Store console' })).toBeVisible()
  await expect(page.getByRole('heading', { name: 'Today', exact: true })).toHaveCount(0)

  const account = consoleAccount()
  const phone = await operatorPhone(browser)
  try {
    const desk = phone.page
    // A wrong code first: refused, what was typed stays but the code.
    await desk.goto('/#/admin')
    await desk.getByLabel('Username').fill(account.username)
    await desk.getByLabel('Password').fill(account.password)
    await desk.getByLabel('Authenticator code').fill('000000')
    await desk.getByRole('button', { name: 'Sign in' }).click()
    await expect(desk.getByRole('alert')).toHaveText('The username, password or code is wrong.')
    await expect(desk.getByLabel('Username')).toHaveValue(account.username)
    await signIn(desk, account)
    await expect(desk.getByText(`${account.username} (Operator)`)).toBeVisible()

    const heading = await openReceipt(desk, id, customer.username)
    const review = desk.getByRole('article').filter({ has: heading })
    await expect(review.getByRole('img', { name: "The customer's receipt" })).toBeVisible()
    await expect(review.getByText(customer.username)).toBeVisible()
    await expect(review.getByText('49.00 $')).toBeVisible()
    await review.getByRole('button', { name: 'Approve' }).click()
    await expect(
      desk.getByRole('status').filter({ hasText: `Top-up #${id} approved` }),
    ).toBeVisible()
    await expect(heading).toHaveCount(0)
  } finally {
    await phone.close()
  }

  await page.goto('/#/wallet')
  await page.reload()
  await expect(page.getByRole('link', { name: /^Balance/ })).toHaveText('59.00 $')
  const line = page.getByRole('row').filter({ hasText: `Top-up #${id}` })
  await expect(line).toContainText('Charged')
  await expect(line).toContainText('49.00 $')
})

test('a rejected receipt shows its reason to the customer in Arabic', async ({
  page,
  request,
  browser,
}) => {
  const customer = await signedInCustomer(page, request, { balance: '5' })
  const id = await sendReceipt(page, 'OMT Pay', '20')
  const phone = await operatorPhone(browser)
  try {
    const desk = phone.page
    // The photo comes late: the review must not move under the operator's finger meanwhile.
    await desk.route(/\/api\/admin\/top-ups\/\d+\/receipt$/, async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1500))
      await route.continue()
    })
    await desk.goto('/#/admin')
    await signIn(desk, consoleAccount())
    const heading = await openReceipt(desk, id, customer.username)
    const review = desk.getByRole('article').filter({ has: heading })
    const photo = review.getByRole('img', { name: "The customer's receipt" })
    const reject = review.getByRole('button', { name: 'Reject…' })
    await expect(photo).toHaveCount(0)
    const waiting = await reject.boundingBox()
    await expect(photo).toBeVisible()
    await expect.poll(() => photo.evaluate((img: HTMLImageElement) => img.complete)).toBe(true)
    expect(await reject.boundingBox()).toEqual(waiting)
    await reject.click()
    // No reason: the customer would not know why.
    await review.getByRole('button', { name: 'Reject', exact: true }).click()
    await expect(desk.getByRole('alert')).toHaveText('Write the reason the customer will read.')
    await desk.getByLabel('Reason the customer will read').fill('الإيصال غير واضح')
    await review.getByRole('button', { name: 'Reject', exact: true }).click()
    await expect(
      desk.getByRole('status').filter({ hasText: `Top-up #${id} rejected` }),
    ).toBeVisible()
  } finally {
    await phone.close()
  }
  await page.goto(`/#/shipping-payments/${id}`)
  await switchToArabic(page)
  await expect(page.getByText('الإيصال غير واضح')).toBeVisible()
})

/**
 * No sideways scroll, and axe-clean in the console's screen (the shell is a11y.spec.ts's) at
 * 390 px; at 320 px the layout alone (the same markup, so axe's verdict is the same).
 */
async function checkScreen(page: Page, label: string) {
  await page.waitForLoadState('networkidle')
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
    `${label}: scrolls sideways`,
  ).toBeLessThanOrEqual(0)
  if (page.viewportSize()?.width !== 320) await audit(page, label, 'main')
}

test('every console screen in both languages: no sideways scroll at 390 and 320 px, axe-clean', async ({
  page,
  request,
  browser,
}) => {
  test.setTimeout(600_000)
  const customer = await signedInCustomer(page, request, { balance: '50' })
  const order = await placeOrder(request, customer.token)
  // Two receipts: the queue then lists the ones not open as buttons, which axe checks too.
  await sendReceipt(page, 'Whish Money', '12')
  await sendReceipt(page, 'OMT Pay', '7')
  const phone = await operatorPhone(browser)
  try {
    const desk = phone.page
    let customerPath = ''
    for (const language of ['en', 'ar']) {
      await desk
        .evaluate((lang) => localStorage.setItem('language', lang), language)
        .catch(() => {})
      for (const width of [390, 320]) {
        await desk.setViewportSize({ width, height: width === 320 ? 640 : 844 })
        const label = `${language} ${width}px`
        await desk.goto('/#/admin')
        await desk.reload()
        await expect(desk.locator('html')).toHaveAttribute('lang', language)
        if (language === 'en' && width === 390) {
          await expect(desk.getByRole('heading', { name: 'Store console' })).toBeVisible()
          await checkScreen(desk, `sign-in ${label}`)
          // The owner: Settings is one of the screens.
          await signIn(desk, consoleAccount('owner'))
          await desk.goto(`/#/admin/customers?q=${customer.username}`)
          await desk.getByRole('link', { name: customer.username }).click()
          await expect(desk.getByRole('heading', { name: customer.username })).toBeVisible()
          customerPath = new URL(desk.url()).hash.slice(1)
          await desk.goto('/#/admin')
        }
        await expect(desk.locator('#today-heading')).toBeVisible()
        await checkScreen(desk, `today ${label}`)
        // The bar's menu, open.
        await desk.getByRole('button', { name: /^(Menu|القائمة)/ }).click()
        await expect(desk.locator('#console-menu').getByRole('link')).toHaveCount(9)
        await checkScreen(desk, `menu ${label}`)
        await desk.goto('/#/admin/top-ups')
        await expect(desk.locator('#top-ups-heading')).toBeVisible()
        await expect(desk.locator('main article img')).toBeVisible()
        await checkScreen(desk, `top-ups ${label}`)
        await desk.locator('main article').getByRole('button').last().click()
        await expect(desk.locator('main article textarea')).toBeFocused()
        await checkScreen(desk, `reject ${label}`)
        await desk.keyboard.press('Escape')
        // Each screen by its heading's id: the one before is gone when it shows.
        for (const [screen, path] of [
          ['usdt', '/admin/usdt'],
          ['orders', '/admin/orders'],
          ['order', `/admin/orders/${order}`],
          ['customers', '/admin/customers'],
          ['customer', customerPath],
          ['catalogue-file', '/admin/catalogue'],
          ['slider', '/admin/slider'],
          ['promo', '/admin/promo'],
          ['settings', '/admin/settings'],
          ['audit', '/admin/audit'],
        ]) {
          await desk.goto(`/#${path}`)
          await expect(desk.locator(`#${screen}-heading`)).toBeVisible()
          await checkScreen(desk, `${screen} ${label}`)
        }
      }
    }
  } finally {
    await phone.close()
  }
})
