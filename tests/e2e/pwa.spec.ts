import { expect, test } from '@playwright/test'
import { waitForServiceWorker } from './support'

test('the manifest is served and the service worker controls the page', async ({
  page,
  request,
}) => {
  const manifest = await request.get('/manifest.webmanifest')
  expect(manifest.ok()).toBe(true)
  const body = (await manifest.json()) as {
    display: string
    icons: { sizes: string; purpose?: string }[]
  }
  expect(body.display).toBe('standalone')
  expect(body.icons.map((icon) => icon.sizes)).toEqual(
    expect.arrayContaining(['192x192', '512x512']),
  )
  expect(body.icons.some((icon) => icon.purpose === 'maskable')).toBe(true)

  await page.goto('/')
  await waitForServiceWorker(page)
  expect(await page.evaluate(() => !!navigator.serviceWorker.controller)).toBe(true)
})

test('the store is installable, and links its manifest only once its storefront starts', async ({
  page,
}) => {
  const asked: string[] = []
  page.on('request', (request) => asked.push(new URL(request.url()).pathname))
  await page.goto('/')
  await expect(page.getByRole('region', { name: 'Offers' }).locator('img').first()).toBeVisible()
  await page.waitForTimeout(1_000)
  // Home's first screen, before any use: the browser has nothing to offer to install yet.
  const cdp = await page.context().newCDPSession(page)
  expect((await cdp.send('Page.getAppManifest')).url).toBe('')
  expect(asked).not.toContain('/manifest.webmanifest')
  // The customer's first use starts the storefront, and the store is installable.
  await page.mouse.move(20, 20)
  await expect
    .poll(async () => (await cdp.send('Page.getAppManifest')).url)
    .toMatch(/\/manifest\.webmanifest$/)
  await waitForServiceWorker(page)
  // A test's browser context is a private window, which Chromium never installs from.
  await expect
    .poll(async () =>
      (await cdp.send('Page.getInstallabilityErrors')).installabilityErrors
        .map((error) => error.errorId)
        .filter((id) => id !== 'in-incognito'),
    )
    .toEqual([])
})

test("the storefront's files come as the build compressed them: brotli for Chromium", async ({
  page,
}) => {
  const [script] = await Promise.all([
    page.waitForResponse((response) => /\/assets\/index-[\w-]+\.js$/.test(response.url())),
    page.goto('/'),
  ])
  expect(script.headers()['content-encoding']).toBe('br')
  // The storefront ran from it: it registers the service worker once the page has settled.
  await waitForServiceWorker(page)
})

test('the service worker installs only once the page has its reply and has shown it', async ({
  page,
}) => {
  let release = () => {}
  const held = new Promise<void>((resolve) => (release = resolve))
  await page.route(/\/api\/products\?.*search=OSN/, async (route) => {
    await held
    await route.continue()
  })
  await page.goto('/#/search?q=OSN&page=1')
  await page.waitForLoadState('load')
  // Past the two seconds after the load event it once waited for, the search still out.
  await page.waitForTimeout(3_500)
  const registered = () =>
    page.evaluate(async () => !!(await navigator.serviceWorker.getRegistration()))
  expect(await registered()).toBe(false)
  release()
  await expect(page.getByRole('listitem').filter({ hasText: 'OSN+' })).toBeVisible()
  await waitForServiceWorker(page)
})

test("the worker keeps the storefront's files for offline use, and not the console's", async ({
  page,
}) => {
  await page.goto('/')
  await waitForServiceWorker(page)
  const kept = await page.evaluate(async () => {
    const names = await caches.keys()
    const precache = await caches.open(names.find((name) => name.includes('precache'))!)
    return (await precache.keys()).map((request) => new URL(request.url).pathname)
  })
  // The entry, a customer's page (the wallet's) and both languages' texts are kept...
  expect(kept.filter((path) => /^\/assets\/index-[\w-]+\.js$/.test(path))).toHaveLength(1)
  expect(kept.some((path) => /^\/assets\/wallet-page-[\w-]+\.js$/.test(path))).toBe(true)
  expect(kept.filter((path) => /^\/assets\/messages-[\w-]+\.js$/.test(path))).toHaveLength(2)
  // ...but no file of the operator console: every customer would download it for nothing.
  expect(kept.filter((path) => /^\/assets\/(console-screen|admin|today-page)-/.test(path))).toEqual(
    [],
  )
})

test('after one online visit the store opens offline', async ({ page, context }) => {
  await page.goto('/')
  await waitForServiceWorker(page)
  // Visit the pages once while the worker is in control, so their data is cached.
  await page.reload()
  await expect(page.getByRole('img').first()).toBeVisible()
  await page.getByRole('link', { name: 'About us' }).first().click()
  // The about text (server HTML) has its own heading: wait for it before reading the page.
  await expect(page.getByRole('heading', { name: 'About Wallet Store' })).toBeVisible()
  const aboutText = (await page.locator('main section').first().textContent()) ?? ''
  await page.getByRole('link', { name: 'Contact us' }).first().click()
  await expect(page.getByRole('heading', { name: 'Contact information' })).toBeVisible()
  await expect(page.locator('dl')).toBeVisible()

  await context.setOffline(true)
  await page.reload()
  await expect(page.getByText('You are offline!')).toBeVisible()
  await expect(page.getByRole('banner')).toBeVisible()
  await expect(page.locator('dl')).toBeVisible()
  await page.getByRole('link', { name: 'About us' }).first().click()
  await expect(page.locator('main section').first()).toHaveText(aboutText)
  await expect(page.getByText('You are offline!')).toBeHidden({ timeout: 4000 })

  await context.setOffline(false)
  await expect(page.getByText('You are online!')).toBeVisible()
})

test("offline, home opens with the first screen of the server's last page", async ({
  page,
  context,
}) => {
  await page.goto('/')
  await waitForServiceWorker(page)
  // A start under the worker's control: it asks the server for the page again and keeps it.
  await page.reload()
  await expect
    .poll(() =>
      page.evaluate(async () => !!(await (await caches.open('first-screen-page')).match('/'))),
    )
    .toBe(true)

  await context.setOffline(true)
  const served = await page.reload()
  expect(served?.fromServiceWorker()).toBe(true)
  // Home paints from the page itself, before any script runs.
  const html = (await served?.text()) ?? ''
  expect(html).toContain('<div id="first-screen-markup">')
  expect(html).toContain('PUBG Mobile UC')
  await expect(page.getByText('You are offline!')).toBeVisible()
  await expect(page.getByRole('list', { name: 'Products' }).getByRole('listitem')).toHaveCount(15)
})

/** Chromium's offer to install, as it makes it once the store can be installed. */
function offerToInstall() {
  const offer = Object.assign(new Event('beforeinstallprompt', { cancelable: true }), {
    prompt: () => {
      ;(window as unknown as { prompted: boolean }).prompted = true
      return Promise.resolve()
    },
    userChoice: Promise.resolve({ outcome: 'dismissed' }),
  })
  window.dispatchEvent(offer)
  return offer.defaultPrevented
}

test('the install button comes when the browser offers to install, and its code only then', async ({
  page,
}) => {
  const asked: string[] = []
  page.on('request', (request) => asked.push(new URL(request.url()).pathname))
  await page.goto('/')
  // The footer is one of the pieces loaded once the page is shown and the browser idle.
  await expect(page.getByRole('contentinfo')).toBeAttached()
  await page.waitForLoadState('networkidle')
  expect(asked.filter((path) => /\/assets\/install-prompt-/.test(path))).toEqual([])
  await expect(page.getByRole('button', { name: 'Install app' })).toHaveCount(0)

  // The browser's own banner is held back: the store's button asks.
  expect(await page.evaluate(offerToInstall)).toBe(true)
  const install = page.getByRole('button', { name: 'Install app' })
  await install.click()
  expect(await page.evaluate(() => (window as unknown as { prompted?: boolean }).prompted)).toBe(
    true,
  )
  // An offer is used once.
  await expect(install).toHaveCount(0)
})

test('an offer to install made as the page starts, before its scripts run, is kept', async ({
  page,
}) => {
  await page.addInitScript(`document.addEventListener('DOMContentLoaded', ${offerToInstall})`)
  await page.goto('/#/products')
  await expect(page.getByRole('button', { name: 'Install app' })).toBeVisible()
})

test.describe('in iOS Safari', () => {
  test.use({
    userAgent:
      'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
  })

  test('the store says how to add it to the home screen, until told it is understood', async ({
    page,
  }) => {
    await page.goto('/')
    const hint = page.getByRole('note').filter({ hasText: 'Add to Home Screen' })
    await expect(hint).toBeVisible()
    await hint.getByRole('button', { name: 'Got it' }).click()
    await expect(hint).toHaveCount(0)
    await page.reload()
    await expect(page.getByRole('contentinfo')).toBeAttached()
    await page.waitForLoadState('networkidle')
    await expect(hint).toHaveCount(0)
  })
})
