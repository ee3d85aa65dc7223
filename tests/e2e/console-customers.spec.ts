import { expect, test } from '@playwright/test'
import { URI, type TOTP } from 'otpauth'
import { audit, operator, signedInCustomer, switchToArabic, uniqueDigits } from './support'
import { openScreen } from './console-support'

const PHONE = { width: 390, height: 844 }
test.use({ viewport: PHONE })

test('an operator corrects a balance with a reason: the customer sees it, the audit log shows it', async ({
  page,
  request,
  browser,
}) => {
  // Two browsers, two sign-ins and two axe audits.
  test.slow()
  const customer = await signedInCustomer(page, request, { balance: '10' })

  // The operator's phone: a browser of its own.
  const account = { username: `op${uniqueDigits()}`, password: 'console-pass-1' }
  const made = operator(
    'users:create',
    '--role',
    'operator',
    '--username',
    account.username,
    '--password',
    account.password,
  ) as { otpauth_uri: string }
  const context = await browser.newContext({ viewport: PHONE })
  const phone = await context.newPage()
  await phone.goto('/#/admin')
  await phone.getByLabel('Username').fill(account.username)
  await phone.getByLabel('Password').fill(account.password)
  await phone
    .getByLabel('Authenticator code')
    .fill((URI.parse(made.otpauth_uri) as TOTP).generate())
  await phone.getByRole('button', { name: 'Sign in' }).click()

  // Customers: found by username, opened.
  await openScreen(phone, 'Customers')
  await phone.getByLabel('Username, phone or e-mail').fill(customer.username.toUpperCase())
  await phone.getByRole('button', { name: 'Search', exact: true }).click()
  await phone.getByRole('link', { name: customer.username }).click()
  await expect(phone.getByRole('heading', { name: customer.username })).toBeVisible()
  await audit(phone, 'a customer in the console', 'main')

  // The correction: a bad amount is refused in place, what was typed stays.
  await phone.getByRole('button', { name: 'Correct the balance…' }).click()
  const dialog = phone.getByRole('dialog', { name: 'Correct the balance' })
  await dialog.getByLabel('Amount (USD)').fill('abc')
  await dialog.getByLabel('Reason the customer will read').fill('Goodwill for a late order')
  await dialog.getByRole('button', { name: 'Credit the wallet' }).click()
  await expect(dialog.getByText('Enter an amount above 0')).toBeVisible()
  await expect(dialog.getByLabel('Reason the customer will read')).toHaveValue(
    'Goodwill for a late order',
  )
  await dialog.getByLabel('Amount (USD)').fill('2.5')
  await audit(phone, 'the correction dialog')
  await dialog.getByRole('button', { name: 'Credit the wallet' }).click()
  await expect(dialog).toBeHidden()
  await expect(
    phone.getByText(`2.5 USD added to the wallet of ${customer.username}.`),
  ).toBeVisible()
  await expect(phone.getByRole('cell', { name: 'Goodwill for a late order' })).toBeVisible()

  // The customer's wallet: the line with its reason, and the new balance.
  await page.goto('/#/wallet')
  await expect(page.getByRole('cell', { name: 'Goodwill for a late order' })).toBeVisible()
  await expect(page.getByText('12.50 $').first()).toBeVisible()

  // The audit log, in Arabic at 320 px: the action with its reason, filtered by the customer.
  await switchToArabic(phone)
  await phone.setViewportSize({ width: 320, height: 700 })
  await openScreen(phone, 'سجل التدقيق')
  await phone.getByLabel('اسم مستخدم العميل').fill(customer.username)
  await phone.getByRole('button', { name: 'تصفية' }).click()
  // Its opening credit, made at the terminal, is there too: who did it tells them apart.
  await expect(phone.getByRole('row').filter({ hasText: 'wallet:credit' })).toHaveCount(2)
  await phone.getByLabel('من', { exact: true }).selectOption(`console:${account.username}`)
  const line = phone.getByRole('row').filter({ hasText: 'wallet:credit' })
  await expect(line).toHaveCount(1)
  await expect(line).toContainText(`console:${account.username}`)
  await expect(line).toContainText('Goodwill for a late order')
  await expect(line).toContainText('balance: 10 → 12.5')
  expect(await phone.evaluate(() => document.documentElement.scrollWidth <= innerWidth)).toBe(true)
  await audit(phone, 'the audit log in Arabic', 'main')
  await context.close()
})
