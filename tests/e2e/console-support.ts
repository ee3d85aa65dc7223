import { expect, type Browser, type Page } from '@playwright/test'
import { URI, type TOTP } from 'otpauth'
import sharp from 'sharp'
import { operator, uniqueDigits } from './support'

/* The console journeys' helpers: accounts, the operator's phone, a customer's receipt. */

export const PHONE = { width: 390, height: 844 }

/** A console account made by the owner's command; its authenticator, as the phone app has it. */
export function consoleAccount(role: 'owner' | 'operator' = 'operator') {
  const account = { username: `op${uniqueDigits()}`, password: 'console-pass-1' }
  const made = operator(
    'users:create',
    '--role',
    role,
    '--username',
    account.username,
    '--password',
    account.password,
  ) as { otpauth_uri: string; recovery_codes: string[] }
  return { ...account, totp: URI.parse(made.otpauth_uri) as TOTP }
}

export type ConsoleAccount = ReturnType<typeof consoleAccount>

export async function signIn(page: Page, account: ConsoleAccount) {
  await page.getByLabel('Username').fill(account.username)
  await page.getByLabel('Password').fill(account.password)
  await page.getByLabel('Authenticator code').fill(account.totp.generate())
  await page.getByRole('button', { name: 'Sign in' }).click()
  await expect(page.getByRole('heading', { name: 'Today', exact: true })).toBeVisible()
}

/** Opens a console screen by its name in the bar's menu (in either language). */
export async function openScreen(page: Page, name: string) {
  await page.getByRole('button', { name: /^(Menu|القائمة)/ }).click()
  await page.locator('#console-menu').getByRole('link', { name, exact: true }).click()
}

/** The operator's phone: a browser of its own, no customer in it. */
export async function operatorPhone(browser: Browser) {
  const context = await browser.newContext({ viewport: PHONE })
  return { page: await context.newPage(), close: () => context.close() }
}

/** The customer sends a receipt top-up with its photo: its number. */
export async function sendReceipt(page: Page, method: 'Whish Money' | 'OMT Pay', value: string) {
  const photo = await sharp({
    create: { width: 300, height: 200, channels: 3, background: '#eee' },
  })
    .png()
    .toBuffer()
  await page.goto('/#/charging-the-wallet')
  await page.getByRole('radio', { name: new RegExp(method) }).check()
  await page.getByLabel(/^Value/).fill(value)
  await page
    .getByLabel('Photo of the payment notice')
    .setInputFiles({ name: 'notice.png', mimeType: 'image/png', buffer: photo })
  await page.getByRole('button', { name: 'Send' }).click()
  await expect(page).toHaveURL(/#\/shipping-payments/)
  const row = page.getByRole('row').filter({ hasText: method }).first()
  return Number((await row.getByRole('cell').first().textContent())?.trim())
}
