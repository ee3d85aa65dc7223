import { expect, test, type Page } from '@playwright/test'
import { operator, savedQueryCache, signedInCustomer, waitForServiceWorker } from './support'

/** Everything this origin keeps in IndexedDB and Cache Storage, as one text. */
function everythingKept(page: Page): Promise<string> {
  return page.evaluate(async () => {
    const texts: string[] = []
    for (const { name } of await indexedDB.databases()) {
      if (!name) continue
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const open = indexedDB.open(name)
        open.onsuccess = () => resolve(open.result)
        open.onerror = () => reject(open.error)
      })
      for (const store of db.objectStoreNames) {
        const values = await new Promise<unknown[]>((resolve, reject) => {
          const all = db.transaction(store).objectStore(store).getAll()
          all.onsuccess = () => resolve(all.result)
          all.onerror = () => reject(all.error)
        })
        texts.push(JSON.stringify(values))
      }
      db.close()
    }
    for (const name of await caches.keys()) {
      const cache = await caches.open(name)
      for (const request of await cache.keys())
        texts.push(request.url, await ((await cache.match(request))?.text() ?? ''))
    }
    return texts.join('\n')
  })
}

test('the account seen online stays readable offline with its age; at logout it leaves the device', async ({
  page,
  request,
  context,
}) => {
  test.slow()
  const customer = await signedInCustomer(page, request, { balance: '100' })
  const code = `OFF-${customer.username.slice(-7)}`
  const placed = (await (
    await request.post('/api/automated/get/packages', {
      headers: {
        Authorization: `Bearer ${customer.token}`,
        'Idempotency-Key': `offline-${customer.username}`,
      },
      multipart: { product_id: '24', qty: '10', wallet_address: 'TXoffline' },
    })
  ).json()) as { data: { id: number } }
  const id = placed.data.id
  operator('orders:complete', String(id), '--code', code)

  // One visit of each page, online.
  await page.goto('/')
  await waitForServiceWorker(page)
  const pages = [
    {
      path: '/Orders',
      heading: 'Orders',
      shows: page.getByRole('link', { name: String(id), exact: true }),
    },
    { path: `/Orders/${id}`, heading: `Order #${id}`, shows: page.getByText(code) },
    { path: '/wallet', heading: 'Wallet', shows: page.getByText(`Order #${id}: USDT (TRC20)`) },
    {
      path: '/Notifications',
      heading: 'Notifications',
      shows: page.getByText(`Order #${id}`, { exact: false }).first(),
    },
  ]
  for (const { path, heading, shows } of pages) {
    await page.goto(`/#${path}`)
    await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible()
    await expect(shows).toBeVisible()
  }
  await expect.poll(() => savedQueryCache(page)).toContain('"notifications","list"')
  expect(await savedQueryCache(page)).toContain(code)

  // Offline, each opens afresh from what the device saved, and says when it was saved.
  await context.setOffline(true)
  const saved = page.getByText(/^You are offline\. This was saved on this device at .*\d:\d\d/)
  for (const { path, heading, shows } of pages) {
    await page.goto(`/#${path}`)
    await page.reload()
    await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible()
    await expect(shows).toBeVisible()
    await expect(saved).toBeVisible()
    // A reply asked for offline fails, and is asked again twice (1 s, then 2 s later): past
    // that, what the device saved is still what the page shows.
    await page.waitForTimeout(4_000)
    await expect(shows).toBeVisible()
    await expect(saved).toBeVisible()
  }
  // Deleting needs the network, and says so at once; the notification stays.
  await page.getByRole('button', { name: 'Delete' }).first().click()
  await expect(page.getByRole('alert')).toHaveText(
    'You are offline. Connect to the internet to delete this.',
  )
  await expect(page.getByRole('listitem').filter({ hasText: `Order #${id}` })).not.toHaveCount(0)
  // A code can still be copied.
  await page.goto(`/#/Orders/${id}`)
  await context.grantPermissions(['clipboard-read', 'clipboard-write'])
  await page.getByRole('button', { name: `Copy code ${code}` }).click()
  await expect(page.getByRole('button', { name: 'Copied' })).toBeVisible()

  // Logging out leaves nothing of the account on the device.
  await context.setOffline(false)
  await page.reload()
  await page.getByRole('button', { name: /Account menu/ }).click()
  await page.getByRole('button', { name: 'Log out' }).click()
  await Promise.all([page.waitForEvent('load'), page.getByRole('button', { name: 'Yes' }).click()])
  await expect(page.getByRole('link', { name: 'Sign in' }).first()).toBeVisible()
  // The saved catalogue is written again a moment later: wait for it, then look at everything.
  await expect.poll(() => savedQueryCache(page)).toContain('"catalogue"')
  const kept = await everythingKept(page)
  // What is kept was looked at: the catalogue is there, nothing of the account is.
  expect(kept).toContain('PUBG Mobile UC')
  for (const trace of [code, customer.username, customer.token, 'TXoffline'])
    expect(kept.includes(trace), `${trace} is kept`).toBe(false)
  await context.setOffline(true)
  await page.goto(`/#/Orders/${id}`)
  await page.reload()
  await expect(page).toHaveURL(/#\/sign-in/)
  expect((await everythingKept(page)).includes(code)).toBe(false)
})
