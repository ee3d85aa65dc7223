import { expect, test } from '@playwright/test'
import { URI, type TOTP } from 'otpauth'
import { type Locator } from '@playwright/test'
import {
  audit,
  operator,
  placeOrder,
  signedInCustomer,
  switchToArabic,
  uniqueDigits,
} from './support'
import { openScreen, signIn } from './console-support'

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

/** The lines an element's text is shown on, top to bottom. */
function linesOf(element: Locator): Promise<string[]> {
  return element.evaluate((root) => {
    const lines: string[] = []
    let line = ''
    let top: number | undefined
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT)
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent ?? ''
      for (let i = 0; i < text.length; i++) {
        const range = document.createRange()
        range.setStart(node, i)
        range.setEnd(node, i + 1)
        const rect = range.getBoundingClientRect()
        if (top !== undefined && rect.top > top + 2) {
          lines.push(line)
          line = ''
        }
        top = rect.top
        line += text[i]
      }
    }
    return [...lines, line]
  })
}

/** Where one character of an element's text is drawn, from the left. */
function leftOf(element: Locator, index: number): Promise<number> {
  return element.evaluate((root, at) => {
    const range = document.createRange()
    range.setStart(root.firstChild!, at)
    range.setEnd(root.firstChild!, at + 1)
    return range.getBoundingClientRect().left
  }, index)
}

test('at 320 px a long operator name ends in an ellipsis, a long e-mail wraps at its @ and dots, a phone reads left to right in Arabic', async ({
  page,
  request,
  browser,
}) => {
  test.slow()
  const buyer = await signedInCustomer(page, request, { balance: '50' })
  const order = await placeOrder(request, buyer.token)
  const n = uniqueDigits()
  const email = `mail${n}.orders@shopaccounts.example.com`
  operator(
    ...['users:create', '--username', `mail${n}`, '--phone', `+9617${n}`, '--email', email],
    ...['--password', 'buyer-pass-1'],
  )
  const username = `op${n}.with.a.rather.long.name.indeed`
  const made = operator(
    ...['users:create', '--role', 'operator', '--username', username],
    ...['--password', 'console-pass-1'],
  ) as { otpauth_uri: string }
  const account = {
    username,
    password: 'console-pass-1',
    totp: URI.parse(made.otpauth_uri) as TOTP,
  }
  const context = await browser.newContext({ viewport: { width: 320, height: 640 } })
  const desk = await context.newPage()
  const scrollsSideways = () =>
    desk.evaluate(() => document.documentElement.scrollWidth > window.innerWidth)
  try {
    await desk.goto('/#/admin')
    await signIn(desk, account)

    // The bar: the name cut short with an ellipsis, whole in its title; the role still shown.
    const name = desk.locator('header bdi[title]')
    await expect(name).toHaveAttribute('title', account.username)
    await expect(desk.getByText(`${account.username} (Operator)`)).toBeVisible()
    expect(await name.evaluate((e) => e.scrollWidth > e.clientWidth)).toBe(true)
    expect(await name.evaluate((e) => getComputedStyle(e).textOverflow)).toBe('ellipsis')
    const role = await desk.locator('header p').filter({ hasText: '(Operator)' }).boundingBox()
    expect(role!.x + role!.width).toBeLessThanOrEqual(320)
    expect(await scrollsSideways()).toBe(false)

    // A long e-mail wraps after its @ or before a dot, never inside a word.
    await desk.goto(`/#/admin/customers?q=mail${n}`)
    await desk.getByRole('link', { name: `mail${n}` }).click()
    const shown = desk.locator('dd bdi').filter({ hasText: email })
    await expect(shown).toHaveText(email)
    const lines = await linesOf(shown)
    expect(lines.length, lines.join(' | ')).toBeGreaterThan(1)
    for (let i = 1; i < lines.length; i++)
      expect(lines[i - 1]!.endsWith('@') || lines[i]!.startsWith('.'), lines.join(' | ')).toBe(true)
    expect(await scrollsSideways()).toBe(false)

    // In Arabic, the customer's phone on the order reads left to right: + first.
    await desk.evaluate(() => localStorage.setItem('language', 'ar'))
    await desk.goto(`/#/admin/orders/${order}`)
    await desk.reload()
    await expect(desk.locator('html')).toHaveAttribute('dir', 'rtl')
    const phone = desk.locator('dd bdi').filter({ hasText: buyer.phone })
    await expect(phone).toHaveText(buyer.phone)
    expect(await leftOf(phone, 0)).toBeLessThan(await leftOf(phone, buyer.phone.length - 1))
    expect(await scrollsSideways()).toBe(false)
  } finally {
    await context.close()
  }
})
