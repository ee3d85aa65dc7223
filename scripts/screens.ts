/**
 * Screenshots of the storefront's screens at phone widths, in both languages, signed out and
 * signed in, to look at after a change: `npm run screens -- [base URL] [out dir] [paths...]`.
 * The server must run with the development outbox (the demo: `npm start`); the demo customer
 * signs in through it. With CONSOLE_USER, CONSOLE_PASSWORD and CONSOLE_OTPAUTH (the otpauth://
 * URI `users:create --role` printed), the console's screens too, signed in once.
 */
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { chromium, type Browser, type Page } from '@playwright/test'
import { URI } from 'otpauth'
import { PLAYWRIGHT_DISABLE_FEATURES } from './lib/chromium'
import { returningBrowser } from './lib/server'

const [base = 'http://localhost:8080', out = 'screens', ...only] = process.argv.slice(2)
const paths = only.length
  ? only
  : ['/', '/products/products-1/1', '/products/products-1/packages/1', '/Orders', '/about-us']
const widths = [390, 320]
/** The console screens to take: CONSOLE_PATHS (comma-separated), or every list screen. */
const consolePaths = process.env.CONSOLE_PATHS?.split(',') ?? [
  '/admin',
  '/admin/top-ups',
  '/admin/usdt',
  '/admin/settings',
  '/admin/customers',
  '/admin/audit',
]

let token: string | undefined

/** Signs the demo customer in once (a new code waits a minute) and reuses the session. */
async function signIn(page: Page, language: string) {
  token ??= await newSession(page)
  // The account's language wins over the device's at sign-in.
  await page.request.post(`${base}/api/change/locale`, {
    multipart: { locale: language },
    headers: { Authorization: `Bearer ${token}` },
  })
  await page.addInitScript((value) => localStorage.setItem('token', value), token)
}

async function newSession(page: Page): Promise<string> {
  const form = { phone_number: '+96170000001', password: 'demo-pass-1' }
  await page.request.post(`${base}/api/login?check=1`, {
    multipart: form,
    headers: { 'X-Requested-With': 'screens' },
  })
  const outbox = await page.request.get(`${base}/api/dev/outbox?to=%2B96170000001`)
  const { data } = (await outbox.json()) as { data: { code: string }[] }
  const reply = await page.request.post(`${base}/api/login?auth=1`, {
    multipart: { ...form, verification_code: data[0]!.code },
    headers: { 'X-Requested-With': 'screens' },
  })
  return ((await reply.json()) as { token: string }).token
}

mkdirSync(out, { recursive: true })
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', PLAYWRIGHT_DISABLE_FEATURES],
})
for (const signedIn of [false, true]) {
  for (const language of ['en', 'ar']) {
    for (const width of widths) {
      const page = await browser.newPage({ viewport: { width, height: 844 } })
      await page.context().addCookies(returningBrowser(base))
      await page.addInitScript((lang) => localStorage.setItem('language', lang), language)
      if (signedIn) await signIn(page, language)
      for (const path of paths) {
        await page.goto(`${base}/#${path}`)
        await page.waitForLoadState('networkidle')
        await page.waitForTimeout(300)
        const name = `${signedIn ? 'in' : 'out'}-${language}-${width}${path.replace(/\W+/g, '_')}.png`
        await page.screenshot({ path: join(out, name) })
        const wide = await page.evaluate(() => document.documentElement.scrollWidth > innerWidth)
        if (wide) console.log(`scrolls sideways: ${name}`)
      }
      await page.close()
    }
  }
}
await consoleScreens(browser)
await browser.close()
console.log(`screenshots in ${out}/`)

/** The console's sign-in and screens (the top-ups queue with a waiting receipt open, if any). */
async function consoleScreens(browser: Browser) {
  const { CONSOLE_USER, CONSOLE_PASSWORD, CONSOLE_OTPAUTH } = process.env
  if (!CONSOLE_USER || !CONSOLE_PASSWORD || !CONSOLE_OTPAUTH) return
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } })
  const page = await context.newPage()
  await page.goto(`${base}/#/admin`)
  await page.getByLabel('Username').waitFor()
  await page.screenshot({ path: join(out, 'console-en-390_sign-in.png') })
  await page.getByLabel('Username').fill(CONSOLE_USER)
  await page.getByLabel('Password').fill(CONSOLE_PASSWORD)
  await page.getByLabel('Authenticator code').fill(URI.parse(CONSOLE_OTPAUTH).generate())
  await page.getByRole('button', { name: 'Sign in' }).click()
  await page.locator('#today-heading').waitFor()
  for (const language of ['en', 'ar']) {
    await page.evaluate((lang) => localStorage.setItem('language', lang), language)
    for (const width of widths) {
      await page.setViewportSize({ width, height: 844 })
      for (const path of consolePaths) {
        await page.goto(`${base}/#${path}`)
        await page.reload()
        await page.waitForLoadState('networkidle')
        await page.waitForTimeout(300)
        const name = `console-${language}-${width}${path.replace(/\W+/g, '_')}.png`
        await page.screenshot({ path: join(out, name), fullPage: true })
        const wide = await page.evaluate(() => document.documentElement.scrollWidth > innerWidth)
        if (wide) console.log(`scrolls sideways: ${name}`)
      }
    }
  }
  await context.close()
}
