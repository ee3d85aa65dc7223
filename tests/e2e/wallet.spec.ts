import { randomBytes } from 'node:crypto'
import { expect, test, type Page } from '@playwright/test'
import sharp from 'sharp'
import { operator, signedInCustomer, zoneOnAnotherDay, zoneOnAnotherDayAt } from './support'

const balance = (page: Page) => page.getByRole('link', { name: /^Balance/ })

/** A photo of a payment notice, as a phone would make one (here a small PNG). */
async function notice(): Promise<{ name: string; mimeType: string; buffer: Buffer }> {
  const buffer = await sharp({
    create: { width: 300, height: 200, channels: 3, background: '#eee' },
  })
    .png()
    .toBuffer()
  return { name: 'notice.png', mimeType: 'image/png', buffer }
}

async function sendReceipt(page: Page, method: 'Whish Money' | 'OMT Pay', value: string) {
  await page.goto('/#/charging-the-wallet')
  await page.getByRole('radio', { name: new RegExp(method) }).check()
  await page.getByLabel(/^Value/).fill(value)
  await page.getByLabel('Photo of the payment notice').setInputFiles(await notice())
  await expect(page.getByRole('img', { name: 'The photo you chose' })).toBeVisible()
  await page.getByRole('button', { name: 'Send' }).click()
  await expect(page).toHaveURL(/#\/shipping-payments/)
  const row = page.getByRole('row').filter({ hasText: method }).first()
  await expect(row).toContainText('Waiting')
  return Number((await row.getByRole('cell').first().textContent())?.trim())
}

test('a receipt, approved by the operator, credits its net value and shows in the wallet', async ({
  page,
  request,
}) => {
  await signedInCustomer(page, request, { balance: '10' })
  await page.goto('/#/charging-the-wallet')
  await expect(balance(page)).toHaveText('10.00 $')
  // The method's tax and the net value, as the value is typed.
  await page.getByRole('radio', { name: /Whish Money/ }).check()
  await expect(page.getByText('Tax 2 %')).toBeVisible()
  await page.getByLabel(/^Value/).fill('50')
  await expect(page.getByText('Credited after 2 % tax')).toBeVisible()
  await expect(page.getByText('49.00 $')).toBeVisible()
  await expect(page.getByText(/up to 8 MB/)).toBeVisible()

  const id = await sendReceipt(page, 'Whish Money', '50')
  operator('charges:approve', String(id))
  await page.reload()
  await expect(balance(page)).toHaveText('59.00 $')
  await page.getByRole('link', { name: 'Whish Money' }).first().click()
  await expect(page.getByRole('heading', { name: `Shipping payment #${id}` })).toBeVisible()
  await expect(page.getByText('Completed')).toBeVisible()
  await expect(page.getByRole('img', { name: 'The receipt you sent' })).toBeVisible()

  await page.goto('/#/wallet')
  await expect(page.getByText('Current balance')).toBeVisible()
  const line = page.getByRole('row').filter({ hasText: `Top-up #${id}` })
  await expect(line).toContainText('Charged')
  await expect(line).toContainText('49.00 $')
  await line.getByRole('link').first().click()
  await expect(page.getByRole('heading', { name: /^Payment #\d+$/ })).toBeVisible()
  const main = page.getByRole('main')
  await expect(main.getByText('10.00 $')).toBeVisible()
  await expect(main.getByText('59.00 $')).toBeVisible()
})

test('a rejected receipt shows as canceled with its reason, and credits nothing', async ({
  page,
  request,
}) => {
  await signedInCustomer(page, request, { balance: '5' })
  const id = await sendReceipt(page, 'OMT Pay', '20')
  operator('charges:reject', String(id), '--reason', 'The photo is unreadable')
  await page.goto(`/#/shipping-payments/${id}`)
  await expect(page.getByText('Canceled')).toBeVisible()
  await expect(page.getByText('The photo is unreadable')).toBeVisible()
  await expect(balance(page)).toHaveText('5.00 $')
})

test('a promo code credits at once, and a second time is refused', async ({ page, request }) => {
  await signedInCustomer(page, request, { balance: '1' })
  await page.goto('/#/charging-the-wallet')
  await page.getByRole('radio', { name: /^Code/ }).check()
  await page.getByLabel('Code', { exact: true }).fill('welcome5')
  await page.getByRole('button', { name: 'Redeem' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'The code was redeemed' })).toBeVisible()
  await expect(balance(page)).toHaveText('6.00 $')
  await page.getByLabel('Code', { exact: true }).fill('WELCOME5')
  await page.getByRole('button', { name: 'Redeem' }).click()
  await expect(page.getByRole('alert')).toHaveText('You have already used this code.')
  await expect(page.getByLabel('Code', { exact: true })).toHaveValue('WELCOME5')
  await expect(balance(page)).toHaveText('6.00 $')
})

test("the zone on another day than the store's is found at any hour but across its midnight", () => {
  // Beirut is at UTC+2 in December: its midnight is 22:00 UTC.
  expect(zoneOnAnotherDayAt(new Date('2026-12-03T12:00:00Z'))).toBe('Pacific/Kiritimati')
  // Twenty minutes before it (where the journeys once stopped, finding none); then none for the
  // journey's three minutes across it.
  expect(zoneOnAnotherDayAt(new Date('2026-12-03T21:40:00Z'))).toBe('Pacific/Kiritimati')
  expect(zoneOnAnotherDayAt(new Date('2026-12-03T21:58:00Z'))).toBeUndefined()
  expect(zoneOnAnotherDayAt(new Date('2026-12-03T22:00:00Z'))).toBe('Etc/GMT+12')
})

test.describe('on a device whose clock is on another day than the store', () => {
  // Option fixtures set this way run as the journey starts; across the store's midnight it
  // waits up to three minutes for one (zoneOnAnotherDay).
  test.describe.configure({ timeout: 5 * 60_000 })
  // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixtures a function asks for
  test.use({ timezoneId: async ({}, use) => use(await zoneOnAnotherDay()) })
  test('the wallet filters by kind and date', async ({ page, request }) => {
    const customer = await signedInCustomer(page, request, { balance: '30' })
    await request.post('/api/automated/get/packages', {
      headers: { Authorization: `Bearer ${customer.token}` },
      multipart: { product_id: '24', qty: '10', wallet_address: 'TXwallet' },
    })
    await page.goto('/#/wallet')
    await expect(page.getByRole('row')).toHaveCount(3)
    await page.getByLabel('Status').selectOption('Discounted')
    await expect(page.getByRole('row')).toHaveCount(2)
    await expect(page.getByRole('row').nth(1)).toContainText('Discounted')
    await page.getByLabel('Status').selectOption('Charged')
    await expect(page.getByRole('row').nth(1)).toContainText('Charged')
    await page.getByLabel('Status').selectOption('')
    await page.getByLabel('Date', { exact: true }).selectOption('2000-01-01')
    await page.getByLabel('Start date').fill('2000-01-02')
    await page.getByLabel('End date').fill('2000-01-03')
    await expect(page.getByText('There are no items to show')).toBeVisible()
    await page.getByLabel('Date', { exact: true }).selectOption('today')
    await expect(page.getByRole('row')).toHaveCount(3)
  })
})

test('offline, a top-up fails at once and nothing is sent', async ({ page, request, context }) => {
  await signedInCustomer(page, request, { balance: '1' })
  const sent: string[] = []
  page.on('request', (r) => {
    if (r.url().includes('/api/charging-processes') && r.method() === 'POST') sent.push(r.url())
  })
  await page.goto('/#/charging-the-wallet')
  await page.getByRole('radio', { name: /^Code/ }).check()
  await page.getByLabel('Code', { exact: true }).fill('WELCOME5')
  await context.setOffline(true)
  await page.getByRole('button', { name: 'Redeem' }).click()
  await expect(page.getByRole('alert')).toHaveText(
    'You are offline. Connect to the internet to send this.',
  )
  await context.setOffline(false)
  await expect(page.getByText('You are online!')).toBeVisible()
  expect(sent).toEqual([])
})

test('USDT: the exact amount and its QR code, found again after a reload, confirmed by itself', async ({
  page,
  request,
}) => {
  // Three operator commands, each a process of its own.
  test.slow()
  await signedInCustomer(page, request, { balance: '10' })
  await page.goto('/#/charging-the-wallet')
  await page.getByRole('radio', { name: /USDT/ }).check()
  await expect(page.getByText('Tax 1.5 %')).toBeVisible()
  await page.getByLabel('Amount (USDT)').fill('0')
  await page.getByRole('button', { name: 'Request payment' }).click()
  await expect(page.getByRole('alert')).toHaveText('Please enter a valid amount')
  await page.getByLabel('Amount (USDT)').fill('20')
  await page.getByLabel('Network').selectOption('trc20')
  await expect(page.getByText('19.70 $')).toBeVisible()
  await page.getByRole('button', { name: 'Request payment' }).click()

  const dialog = page.getByRole('dialog')
  await expect(dialog.getByRole('heading', { name: /^Pay 20\.\d+ USDT$/ })).toBeVisible()
  await expect(dialog).toContainText('You must pay this exact amount. Do not pay more or less.')
  await expect(dialog).toContainText('TNTYuKfobXw9Qphr49rwuo7uWjvmmUWkcJ')
  await expect(dialog.getByRole('img', { name: /QR code/ }).locator('svg')).toBeVisible()
  await expect(dialog.getByText(/Waiting for payment… \d\d:\d\d/)).toBeVisible()
  await expect(dialog).toContainText(
    'Confirmation takes 2 to 5 minutes; your balance updates by itself once it is confirmed.',
  )
  const amount = /Pay (\S+) USDT/.exec((await dialog.getByRole('heading').textContent()) ?? '')![1]!

  // Back later: the same payment, with its countdown.
  await page.reload()
  await expect(page.getByRole('dialog')).toContainText(amount)

  const payments = operator('payments:list', '--status', 'OPEN') as {
    id: number
    unique_amount: string
  }[]
  const mine = payments.find((p) => p.unique_amount === amount)!
  // A transfer of its own, so the journey can run again on the same database.
  operator('payments:confirm', String(mine.id), '--tx', randomBytes(32).toString('hex'))
  // Within one poll (every 5 s).
  await expect(page.getByRole('dialog').getByText('Payment confirmed!')).toBeVisible({
    timeout: 10_000,
  })
  await page.getByRole('button', { name: 'Done' }).click()
  await expect(page).toHaveURL(/#\/$/)
  // 1.5 % tax, rounded down to the micro-USDT.
  const credited = Number(amount) - Math.ceil(Number(amount) * 1.5 * 10_000) / 1_000_000
  await expect(balance(page)).toHaveText(`${(10 + credited).toFixed(2)} $`)
})
