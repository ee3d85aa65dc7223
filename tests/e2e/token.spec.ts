import { createHash } from 'node:crypto'
import { expect, test, type Locator, type Page } from '@playwright/test'
import { openDatabase, signedInCustomer, switchToArabic } from './support'

/*
 * The API token dialog: the token made in the browser, copied and regenerated; a whitelist
 * with a bad line refused before anything is sent; a good one saved; and the saved token then
 * opening the reseller API from a whitelisted address only (every journey's requests come from
 * 127.0.0.1, and a forged X-Forwarded-For does not make them anything else).
 */

const TOKEN = /^4412\|[A-Za-z0-9]{40}$/

function savedHash(username: string): string | null {
  const db = openDatabase()
  try {
    const row = db.prepare('select api_token_hash from users where username = ?').get(username) as
      { api_token_hash: string | null } | undefined
    return row?.api_token_hash ?? null
  } finally {
    db.close()
  }
}

/** Every POST user/token the page sends. */
function tokenPosts(page: Page): string[] {
  const posts: string[] = []
  page.on('request', (request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/user/token')
      posts.push(request.postData() ?? '')
  })
  return posts
}

async function openTokenDialog(page: Page, username: string, name = 'API token') {
  await page.getByRole('button', { name: new RegExp(username) }).click()
  await page.getByRole('button', { name }).click()
  const dialog = page.getByRole('dialog', { name })
  await expect(dialog).toBeVisible()
  return dialog
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex')

async function save(dialog: Locator, name = 'Save') {
  await dialog.getByRole('button', { name, exact: true }).click()
}

test('the API token dialog: regenerate, a bad address refused, a good whitelist saved and used', async ({
  page,
  request,
  context,
}) => {
  // Two dialogs, two saves and the API calls: longer than most journeys on a shared machine.
  test.slow()
  await context.grantPermissions(['clipboard-read', 'clipboard-write'])
  const customer = await signedInCustomer(page, request, { balance: '100' })
  const posts = tokenPosts(page)
  await page.goto('/')

  const dialog = await openTokenDialog(page, customer.username)
  const token = dialog.getByLabel('Your API token')
  await expect(token).toHaveValue(TOKEN)
  const first = await token.inputValue()
  await dialog.getByRole('button', { name: 'Regenerate' }).click()
  await expect(token).not.toHaveValue(first)
  await expect(token).toHaveValue(TOKEN)
  const made = await token.inputValue()

  await dialog.getByRole('button', { name: 'Copy the API token' }).click()
  await expect(dialog.getByRole('button', { name: 'Copied' })).toBeVisible()
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(made)
  await expect(dialog.getByRole('button', { name: 'Copy the API token' })).toBeVisible()

  // An empty whitelist is a token that is off; a bad line is named, and nothing is sent.
  const whitelist = dialog.getByLabel('IP whitelist')
  await expect(dialog.getByText('The token is off until you add an address.')).toBeVisible()
  await whitelist.fill('203.0.113.7\nnot-an-ip\n2001:db8::/48')
  await save(dialog)
  await expect(dialog.getByRole('alert')).toHaveText(
    'Line 2: “\u2068not-an-ip\u2069” is not an IPv4 or IPv6 address or range.',
  )
  await expect(whitelist).toHaveAttribute('aria-invalid', 'true')
  expect(posts).toEqual([])
  expect(savedHash(customer.username)).toBeNull()

  await whitelist.fill('203.0.113.7\n2001:db8::/48')
  await expect(dialog.getByRole('alert')).toBeHidden()
  await save(dialog)
  await expect(dialog.getByRole('status')).toHaveText('Token saved successfully!')
  await expect(dialog).toBeHidden()
  expect(posts).toHaveLength(1)
  expect(savedHash(customer.username)).toBe(sha256(made))

  // From 127.0.0.1, not on the list, the token opens nothing, whatever the request claims.
  const forged = await request.post('/api/v2', {
    form: { key: made, action: 'balance' },
    headers: { 'X-Forwarded-For': '203.0.113.7' },
  })
  // Refused as panels refuse: 200 with the reason, which their clients show.
  expect(forged.status()).toBe(200)
  expect(await forged.json()).toEqual({
    error:
      "This API token may not be used from 127.0.0.1. Add the address to the token's IP whitelist.",
  })

  // The dialog shows what was saved; adding this machine's address opens the API to it.
  const again = await openTokenDialog(page, customer.username)
  await expect(again.getByLabel('Your API token')).toHaveValue(made)
  await expect(again.getByLabel('IP whitelist')).toHaveValue('203.0.113.7\n2001:db8::/48')
  await again.getByLabel('IP whitelist').fill('203.0.113.7\n2001:db8::/48\n127.0.0.1')
  await save(again)
  await expect(again.getByRole('status')).toHaveText('Token saved successfully!')
  await expect(again).toBeHidden()
  await expect
    .poll(async () => {
      const res = await request.post('/api/v2', { form: { key: made, action: 'balance' } })
      return res.json() as Promise<unknown>
    })
    .toEqual({ balance: '100', currency: 'USD' })
})

test('the API token dialog in Arabic', async ({ page, request }) => {
  test.slow()
  const customer = await signedInCustomer(page, request, { balance: '5' })
  const posts = tokenPosts(page)
  await page.goto('/')
  await switchToArabic(page)

  const dialog = await openTokenDialog(page, customer.username, 'رمز API')
  await expect(dialog.getByLabel('رمز API الخاص بك')).toHaveValue(TOKEN)
  await expect(dialog.getByText('الرمز متوقف إلى أن تضيف عنوانًا.')).toBeVisible()
  const whitelist = dialog.getByLabel('قائمة عناوين IP المسموح بها')
  await whitelist.fill('198.51.100.0/33')
  await save(dialog, 'حفظ')
  await expect(dialog.getByRole('alert')).toHaveText(
    'السطر 1: «\u2068198.51.100.0/33\u2069» ليس عنوان IPv4 أو IPv6 ولا نطاقًا.',
  )
  expect(posts).toEqual([])
  await whitelist.fill('198.51.100.0/24')
  await save(dialog, 'حفظ')
  await expect(dialog.getByRole('status')).toHaveText('تم حفظ الرمز بنجاح!')
  await expect(dialog).toBeHidden()
  expect(posts).toHaveLength(1)
})
