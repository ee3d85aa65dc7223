import { expect, test, type Page } from '@playwright/test'
import { consoleAccount, openScreen, operatorPhone, PHONE, signIn } from './console-support'
import { audit, placeOrder, pushesTo, signedInCustomer, switchToArabic } from './support'

test.use({ viewport: PHONE })
// Three operator commands (a process each) before the first step, and two browsers.
test.describe.configure({ timeout: 120_000 })

/** Nothing on the page scrolls sideways at the phone's width. */
async function fitsWidth(page: Page, width: number) {
  await page.setViewportSize({ width, height: 800 })
  await expect
    .poll(() => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth))
    .toBeLessThanOrEqual(0)
}

test('an operator finds a customer’s order and completes it with two codes; the customer sees both and is told', async ({
  page,
  request,
  browser,
}) => {
  const customer = await signedInCustomer(page, request, {
    balance: '100',
    fcmToken: `e2e-console-orders-${Date.now()}`,
  })
  const id = await placeOrder(request, customer.token)

  const account = consoleAccount()
  const phone = await operatorPhone(browser)
  try {
    const desk = phone.page
    await desk.goto('/#/admin')
    await signIn(desk, account)
    // In English: find the order by its customer among everyone's.
    await openScreen(desk, 'Orders')
    await expect(desk.getByRole('heading', { name: 'Orders', level: 1 })).toBeVisible()
    await desk.getByLabel('Customer').fill(customer.username)
    await desk.getByLabel('Status').selectOption('WAITING')
    await desk
      .getByRole('search', { name: 'Find orders' })
      .getByRole('button', { name: 'Search' })
      .click()
    await expect(desk.getByRole('status').filter({ hasText: 'Orders found: 1' })).toBeVisible()
    await audit(desk, 'the console’s orders at 390 px')
    await fitsWidth(desk, 320)
    await desk.setViewportSize(PHONE)
    await desk.getByRole('link', { name: new RegExp(`^#${id} `) }).click()
    await expect(desk.getByRole('heading', { name: `Order #${id}` })).toBeVisible()
    // What the customer entered in the order form.
    await expect(desk.getByText('TXnotify')).toBeVisible()

    // In Arabic: complete it with two codes and a note.
    await switchToArabic(desk)
    await expect(desk.getByRole('heading', { name: `الطلب رقم ${id}` })).toBeVisible()
    await audit(desk, 'the console’s order in Arabic at 390 px')
    await fitsWidth(desk, 320)
    await desk.setViewportSize(PHONE)
    await desk.getByLabel('الأكواد، كود في كل سطر').fill('GIFT-AAAA-1111\nGIFT-BBBB-2222')
    await desk.getByLabel('ملاحظة', { exact: true }).fill('Redeem in the app')
    await desk.getByRole('button', { name: 'إكمال الطلب' }).click()
    await expect(
      desk.getByRole('status').filter({ hasText: `اكتمل الطلب رقم ${id}` }),
    ).toBeVisible()
    const codes = desk.getByRole('list', { name: 'الأكواد' })
    await expect(codes.getByRole('listitem')).toHaveCount(2)
    await expect(desk.getByRole('button', { name: 'إكمال الطلب' })).toHaveCount(0)
    // Its history: who completed it, and that the customer was told.
    const history = desk.getByRole('listitem')
    await expect(history.filter({ hasText: account.username })).toContainText('مكتمل')
    await expect(history.filter({ hasText: 'أُبلغ العميل' })).toHaveCount(1)
  } finally {
    await phone.close()
  }

  // The customer: both codes on the order's page, and the notification (bell and push).
  await page.goto(`/#/Orders/${id}`)
  await expect(page.getByText('GIFT-AAAA-1111')).toBeVisible()
  await expect(page.getByText('GIFT-BBBB-2222')).toBeVisible()
  await expect(page.getByText('Redeem in the app')).toBeVisible()
  const bell = page.getByRole('button', { name: /^Notifications/ })
  // The credit that opened the wallet, and the completed order.
  await expect(bell).toHaveAccessibleName('Notifications: 2 new')
  await bell.click()
  await expect(
    page.getByRole('banner').getByRole('region', { name: 'Notifications' }),
  ).toContainText(`Order #${id} completed`)
  // Pushed to their phone too, about this order.
  const orderPush = async () =>
    (await pushesTo(request, customer.username)).some(
      (push) =>
        JSON.stringify((push.message as { data?: unknown }).data) ===
        JSON.stringify({ kind: 'order', id: String(id), tag: `order-${id}` }),
    )
  await expect.poll(orderPush).toBe(true)
})
