import { spawnSync } from 'node:child_process'
import AxeBuilder from '@axe-core/playwright'
import { randomInt } from 'node:crypto'
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { expect, type APIRequestContext, type Page } from '@playwright/test'

/** The SQLite file of the server under test (made fresh by playwright.config.ts). */
export function openDatabase(): DatabaseSync {
  const dir = process.env.E2E_DATA_DIR
  if (!dir) throw new Error('E2E_DATA_DIR is not set')
  return new DatabaseSync(join(dir, 'store.db'), { readOnly: true })
}

/** Waits until the service worker is active and controls the page. */
export async function waitForServiceWorker(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready
  })
  await page.waitForFunction(() => !!navigator.serviceWorker.controller, undefined, {
    timeout: 15_000,
  })
}

/**
 * Waits until the storefront has taken the page over and settled: the floating WhatsApp button
 * is its own (the server's first screens come without it) and comes once the page is hydrated,
 * its replies are in and the browser is idle. The footer, which the server's screens carry, is
 * no sign of it. On a page that shows the server's screen, the storefront starts at the first use
 * or 4 s after the main picture's paint (`START_AFTER_MS`, server/http/first-screen.ts): without a
 * use, it takes that long.
 */
export async function storefrontSettled(page: Page, locale: 'en' | 'ar' = 'en'): Promise<void> {
  const name = locale === 'ar' ? 'تحدث معنا عبر واتساب' : 'Chat with us on WhatsApp'
  await expect(page.getByRole('link', { name })).toBeVisible({ timeout: 15_000 })
}

/** Switches to Arabic: from the top bar, or signed in on a phone, from the account menu. */
export async function switchToArabic(page: Page): Promise<void> {
  const button = page.getByRole('button', { name: 'العربية' })
  const menu = page.getByRole('button', { name: /^Account menu of/ })
  // isVisible() does not wait: wait for the bar to show one or the other first, or a page
  // still starting (signed out, no account menu) would be taken for one with the menu.
  await expect(button.or(menu).first()).toBeVisible()
  const inMenu = !(await button.isVisible())
  if (inMenu) await menu.click()
  await button.click()
  if (inMenu) await page.keyboard.press('Escape')
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl')
}

/** Runs an operator command against the e2e database and returns its --json output. */
export function operator(...args: string[]): unknown {
  const dir = process.env.E2E_DATA_DIR
  if (!dir) throw new Error('E2E_DATA_DIR is not set')
  return operatorOf(join(dir, 'store.db'), ...args)
}

/** The same against another store's SQLite file (a second store a journey started). */
export function operatorOf(database: string, ...args: string[]): unknown {
  const dir = process.env.E2E_DATA_DIR
  if (!dir) throw new Error('E2E_DATA_DIR is not set')
  const result = spawnSync('tsx', ['server/cli.ts', ...args, '--json'], {
    env: {
      ...process.env,
      SQLITE_PATH: database,
      RECEIPTS_DIR: join(dir, 'receipts'),
      DATABASE_URL: '',
      LOG_LEVEL: 'silent',
      NODE_ENV: 'test',
    },
    encoding: 'utf8',
  })
  if (result.status !== 0)
    throw new Error(`operator ${args.join(' ')} failed: ${result.stderr}${result.stdout}`)
  return JSON.parse(result.stdout) as unknown
}

/**
 * Seven random digits: names and phone numbers that never collide, whichever worker and
 * whatever the clock (two workers may start a journey in the same millisecond).
 */
export const uniqueDigits = () => String(randomInt(10_000_000)).padStart(7, '0')

/** The query cache the app persisted to IndexedDB, as text ('' when there is none). */
export function savedQueryCache(page: Page): Promise<string> {
  return page.evaluate(
    () =>
      new Promise<string>((resolve, reject) => {
        const open = indexedDB.open('keyval-store')
        open.onerror = () => reject(open.error)
        open.onsuccess = () => {
          const get = open.result.transaction('keyval').objectStore('keyval').get('query-cache')
          get.onsuccess = () => resolve(String(get.result ?? ''))
          get.onerror = () => reject(get.error)
        }
      }),
  )
}

/**
 * A new customer with a balance, signed in through the API (codes from the outbox), whose
 * token the page starts with. Faster than the sign-up screens, which accounts.spec.ts covers.
 */
/** A new customer made by the operator's command, with unique name, phone and e-mail. */
export function createCustomer(
  prefix: string,
  { password, type = 'CUSTOMER' }: { password: string; type?: 'CUSTOMER' | 'COMPANY' },
) {
  const n = uniqueDigits()
  const customer = {
    username: `${prefix}${n}`,
    phone: `+9617${n}`,
    email: `${prefix}${n}@example.com`,
    password,
  }
  operator(
    'users:create',
    '--username',
    customer.username,
    '--phone',
    customer.phone,
    '--email',
    customer.email,
    '--password',
    customer.password,
    '--type',
    type,
  )
  return customer
}

export async function signedInCustomer(
  page: Page,
  request: APIRequestContext,
  {
    balance = '100',
    type = 'CUSTOMER',
    fcmToken,
  }: { balance?: string; type?: 'CUSTOMER' | 'COMPANY'; fcmToken?: string } = {},
) {
  const customer = createCustomer('buyer', { password: 'buyer-pass-1', type })
  if (balance !== '0') operator('wallet:credit', customer.username, balance, '--reason', 'e2e')
  const form = { phone_number: customer.phone, password: customer.password }
  // A script, not a page: the header tells the server this is no cross-site form post.
  const headers = { 'X-Requested-With': 'e2e' }
  expect((await request.post('/api/login?check=1', { multipart: form, headers })).ok()).toBe(true)
  const outbox = (await (
    await request.get(`/api/dev/outbox?to=${encodeURIComponent(customer.phone)}`)
  ).json()) as {
    data: { code: string }[]
  }
  const reply = await request.post('/api/login?auth=1', {
    multipart: {
      ...form,
      verification_code: outbox.data[0]!.code,
      ...(fcmToken ? { fcm_token: fcmToken } : {}),
    },
    headers,
  })
  const { token } = (await reply.json()) as { token: string }
  await page.addInitScript((value) => {
    if (!sessionStorage.getItem('e2e-token-set')) {
      localStorage.setItem('token', value)
      sessionStorage.setItem('e2e-token-set', '1')
    }
  }, token)
  return { ...customer, token }
}

/** The pushes the server sent a customer (the development push outbox), newest first. */
export async function pushesTo(request: APIRequestContext, username: string) {
  const reply = await request.get(`/api/dev/push?user=${encodeURIComponent(username)}`)
  return ((await reply.json()) as { data: { message: unknown }[] }).data
}

/**
 * Delivers a push message to the page's service worker as the browser's push service would,
 * through the DevTools protocol (no Firebase, no subscription needed). A delivery once came to
 * nothing (about 1 run in 100 on a busy machine: no notification, no sign of the push), so the
 * helper watches the worker for the push event and delivers again when none came within 3 s;
 * what the worker does with the push is the test's to check.
 */
export async function deliverPush(page: Page, origin: string, message: unknown): Promise<void> {
  const worker = page
    .context()
    .serviceWorkers()
    .find((w) => w.url().startsWith(origin))
  if (!worker) throw new Error(`no service worker of ${origin}`)
  // Counts the push events the worker receives (after its own listener has run).
  const pushesSeen = () =>
    worker.evaluate(() => {
      const scope = self as unknown as { pushesSeen?: number }
      if (scope.pushesSeen === undefined) {
        scope.pushesSeen = 0
        self.addEventListener('push', () => (scope.pushesSeen! += 1))
      }
      return scope.pushesSeen
    })
  const cdp = await page.context().newCDPSession(page)
  const registration = new Promise<string>((resolve) => {
    cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
      const ours = registrations.find((r) => !r.isDeleted && r.scopeURL.startsWith(origin))
      if (ours) resolve(ours.registrationId)
    })
  })
  await cdp.send('ServiceWorker.enable')
  const registrationId = await registration
  try {
    for (let attempt = 1; ; attempt++) {
      const before = await pushesSeen()
      await cdp.send('ServiceWorker.deliverPushMessage', {
        origin,
        registrationId,
        data: JSON.stringify(message),
      })
      try {
        await expect.poll(pushesSeen, { timeout: 3_000 }).toBeGreaterThan(before)
        return
      } catch (err) {
        if (attempt === 3) throw err
      }
    }
  } finally {
    await cdp.detach()
  }
}

/** The store's time zone on the test server (the default STORE_TIMEZONE). */
const STORE_TIME_ZONE = 'Asia/Beirut'

const dayIn = (timeZone: string, at: Date) => at.toLocaleDateString('en-CA', { timeZone })

/** How long a journey on another day's clock may take: its zone's date must differ that long. */
const JOURNEY_SPAN_MS = 3 * 60_000

/**
 * A device time zone whose date differs from the store's now and for the journey's span, so a
 * journey that filters by "today" fails if the storefront counts the day on the device's clock
 * (the server counts it in the store's zone). Asked when the journey starts (a fixture), not
 * when its file loads. Across the store's midnight no zone is on another day on both sides of
 * it (the store's day changes, and no zone is two days off), so it waits that moment out.
 */
export async function zoneOnAnotherDay(): Promise<string> {
  for (;;) {
    const zone = zoneOnAnotherDayAt(new Date())
    if (zone) return zone
    await new Promise((resolve) => setTimeout(resolve, 15_000))
  }
}

/** The zone zoneOnAnotherDay picks at `now`; undefined while none qualifies. */
export function zoneOnAnotherDayAt(now: Date): string | undefined {
  const soon = new Date(now.getTime() + JOURNEY_SPAN_MS)
  return ['Pacific/Kiritimati', 'Etc/GMT+12'].find((candidate) =>
    [now, soon].every((at) => dayIn(candidate, at) !== dayIn(STORE_TIME_ZONE, at)),
  )
}

/**
 * Waits until the page has made no request for half a second (what loads once it has settled,
 * the account bar, the bell, the footer, is in), for 20 s at most: once, on a busy machine, a
 * signed-in page never got there although every request it had made was done. The checks that
 * follow then run on what is on the screen, and the run's output says the wait ran out.
 */
export async function networkQuiet(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle', { timeout: 20_000 }).catch(() => {
    console.warn(`${page.url()}: the network did not go quiet in 20 s`)
  })
}

/**
 * axe-core (WCAG 2 A/AA, 2.1 A/AA) finds nothing serious or critical on the page, or in the
 * part `include` selects.
 */
export async function audit(page: Page, what: string, include?: string) {
  await networkQuiet(page)
  // A dialog fades in: axe measures what stays on screen, not a frame of the fade (a primary
  // button half faded in failed its contrast once on a busy machine).
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation.effect?.getTiming().iterations !== Infinity)
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  )
  const builder = new AxeBuilder({ page })
  if (include) builder.include(include)
  const results = await builder.withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze()
  const serious = results.violations.filter(
    (v) => v.impact === 'serious' || v.impact === 'critical',
  )
  expect(
    serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
    what,
  ).toEqual([])
}

/** An order of 10 of product 24 for a wallet address, placed by the customer's token: its id. */
export async function placeOrder(request: APIRequestContext, token: string): Promise<number> {
  const reply = await request.post('/api/automated/get/packages', {
    headers: { Authorization: `Bearer ${token}` },
    multipart: { product_id: '24', qty: '10', wallet_address: 'TXnotify' },
  })
  return ((await reply.json()) as { data: { id: number } }).data.id
}
