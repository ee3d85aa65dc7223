import { expect, test, type APIRequestContext } from '@playwright/test'
import { signedInCustomer, switchToArabic } from './support'

/*
 * The account's lists sort as the customer picks (newest or oldest first, the highest or the
 * lowest amount), and the address keeps the choice: a reload, or a link, shows the same order.
 */

async function placeOrders(request: APIRequestContext, token: string, quantities: string[]) {
  const ids: number[] = []
  for (const qty of quantities) {
    const reply = await request.post('/api/automated/get/packages', {
      headers: { Authorization: `Bearer ${token}` },
      multipart: { product_id: '24', qty, wallet_address: 'TXsorted' },
    })
    expect(reply.ok()).toBe(true)
    ids.push(((await reply.json()) as { data: { id: number } }).data.id)
  }
  return ids
}

test('the orders sorted oldest first from the list, and again after a reload, in both languages', async ({
  page,
  request,
}) => {
  await page.setViewportSize({ width: 390, height: 844 })
  const customer = await signedInCustomer(page, request, { balance: '500' })
  const [oldest, largest, newest] = await placeOrders(request, customer.token, ['10', '150', '50'])
  // The first row's first cell: the order's number.
  const firstLink = () => page.getByRole('table').getByRole('row').nth(1).getByRole('link').first()

  await page.goto('/#/Orders')
  await expect(firstLink()).toHaveText(String(newest))
  await page.getByLabel('Sort').selectOption({ label: 'Oldest first' })
  await expect(page).toHaveURL(/sort=oldest/)
  await expect(firstLink()).toHaveText(String(oldest))
  await page.reload()
  await expect(page.getByLabel('Sort')).toHaveValue('oldest')
  await expect(firstLink()).toHaveText(String(oldest))

  await page.getByLabel('Sort').selectOption({ label: 'Highest amount first' })
  await expect(firstLink()).toHaveText(String(largest))

  // The rows come again in the language picked: the reply names the product in it.
  const productName = async (local: string) => {
    const reply = await request.get(`/api/orders?local=${local}`, {
      headers: { Authorization: `Bearer ${customer.token}` },
    })
    return ((await reply.json()) as { data: { product_name: string }[] }).data[0]!.product_name
  }
  const [english, arabic] = [await productName('en'), await productName('ar')]
  expect(arabic).not.toBe(english)
  await expect(page.getByRole('table')).toContainText(english)
  await switchToArabic(page)
  await expect(page.getByRole('table')).toContainText(arabic)
  await expect(page.getByRole('table')).not.toContainText(english)
  await page.getByLabel('الترتيب').selectOption({ label: 'الأقدم أولًا' })
  await expect(firstLink()).toHaveText(String(oldest))
  await page.reload()
  await expect(page.getByLabel('الترتيب')).toHaveValue('oldest')
  await expect(firstLink()).toHaveText(String(oldest))
})
