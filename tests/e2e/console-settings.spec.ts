import { expect, test } from '@playwright/test'
import {
  consoleAccount,
  openScreen,
  operatorPhone,
  PHONE,
  sendReceipt,
  signIn,
} from './console-support'
import { signedInCustomer, switchToArabic, uniqueDigits } from './support'

test.use({ viewport: PHONE })

test('an operator is refused the settings; the owner changes a contact number the store then shows', async ({
  page,
  browser,
}) => {
  const phone = await operatorPhone(browser)
  try {
    const desk = phone.page
    await desk.goto('/#/admin')
    await signIn(desk, consoleAccount('operator'))
    await desk.getByRole('button', { name: 'Menu' }).click()
    await expect(desk.getByRole('link', { name: 'Audit log' })).toBeVisible()
    await expect(desk.getByRole('link', { name: 'Settings' })).toHaveCount(0)
    await desk.goto('/#/admin/settings')
    await expect(desk.getByText("Only the store's owner can change the settings.")).toBeVisible()
    // The server refuses it too, whatever the screen shows.
    const refused = await desk.request.get('/api/admin/settings')
    expect(refused.status()).toBe(403)
  } finally {
    await phone.close()
  }

  await page.goto('/#/admin')
  await signIn(page, consoleAccount('owner'))
  await openScreen(page, 'Settings')
  const contact = page.getByRole('region', { name: 'Contact details' })
  const number = contact.getByLabel('Phone number', { exact: true })
  // A number that is none: refused in words, what was typed stays.
  await number.fill('12')
  await contact.getByRole('button', { name: 'Save' }).click()
  await expect(contact.getByText('The phone number is not valid').first()).toBeVisible()
  await expect(number).toHaveValue('12')
  await expect(number).toHaveAttribute('aria-invalid', 'true')
  const digits = uniqueDigits().slice(1)
  await number.fill(`03 ${digits}`)
  await contact.getByRole('button', { name: 'Save' }).click()
  await expect(contact.getByRole('status')).toHaveText('Settings saved.')
  await expect(number).toHaveValue(`+9613${digits}`)

  // A visitor reads it on the contact page, in Arabic.
  const visitor = await browser.newContext({ viewport: PHONE })
  try {
    const store = await visitor.newPage()
    await store.goto('/#/contact-us')
    await switchToArabic(store)
    await expect(store.getByRole('link', { name: `+9613${digits}` })).toBeVisible()
  } finally {
    await visitor.close()
  }
})

test("a customer's receipt moves the console bar's badge within a few seconds", async ({
  page,
  request,
  browser,
}) => {
  const phone = await operatorPhone(browser)
  try {
    const desk = phone.page
    const firstCount = desk.waitForResponse(/\/api\/admin\/alerts/)
    await desk.goto('/#/admin')
    await signIn(desk, consoleAccount('operator'))
    // Other journeys' receipts may be waiting: the badge counts one more than now.
    const counted = (await (await firstCount).json()) as { data: { waiting_top_ups: number } }
    const before = counted.data.waiting_top_ups
    const badge = desk.locator('[data-badge="waiting_top_ups"] [aria-hidden="true"]')
    await signedInCustomer(page, request, { balance: '0' })
    await sendReceipt(page, 'Whish Money', '25')
    await expect(badge).toHaveText(String(before + 1), { timeout: 10_000 })
    await expect(
      desk.getByRole('button', { name: new RegExp(`^Menu ${before + 1} waiting`) }),
    ).toBeVisible()
  } finally {
    await phone.close()
  }
})

test('the owner changes a price and makes a promo code the customer redeems once', async ({
  page,
  request,
  browser,
}) => {
  // Two people, a console sign-in and six screens: room on a busy machine.
  test.setTimeout(120_000)
  await signedInCustomer(page, request, { balance: '1' })
  const code = `E2E${uniqueDigits()}`
  const phone = await operatorPhone(browser)
  try {
    const desk = phone.page
    await desk.goto('/#/admin')
    await signIn(desk, consoleAccount('owner'))
    await openScreen(desk, 'Catalogue')
    await desk.getByLabel('Find a product or package').fill('Weekly Membership')
    await desk.getByRole('button', { name: /^Free Fire Diamonds/ }).click()
    // The package's own row, inside its product's.
    const item = desk
      .getByRole('listitem')
      .filter({ has: desk.getByRole('heading', { name: 'Weekly Membership' }) })
      .last()
    await item.getByLabel('Base price ($)').fill('2')
    await item.getByRole('button', { name: 'Save prices' }).click()
    await expect(item.getByRole('status')).toContainText(
      'The prices of Weekly Membership are saved',
    )

    await openScreen(desk, 'Promo codes')
    await desk.getByLabel('Code', { exact: true }).fill(code)
    await desk.getByLabel('Value').fill('3')
    await desk.getByLabel('Customers who may use it').fill('5')
    await desk.getByRole('button', { name: 'Make the code' }).click()
    await expect(desk.getByRole('listitem').filter({ hasText: code })).toBeVisible()
  } finally {
    await phone.close()
  }

  // The customer: the code, credited once.
  await page.goto('/#/charging-the-wallet')
  await page.getByRole('radio', { name: /^Code/ }).check()
  await page.getByLabel('Code', { exact: true }).fill(code.toLowerCase())
  await page.getByRole('button', { name: 'Redeem' }).click()
  const balance = page.getByRole('link', { name: /^Balance/ })
  await expect(balance).toHaveText('4.00 $')
  await page.getByLabel('Code', { exact: true }).fill(code)
  await page.getByRole('button', { name: 'Redeem' }).click()
  await expect(page.getByRole('alert')).toHaveText('You have already used this code.')
  await expect(balance).toHaveText('4.00 $')
})
