import { spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { expect, test, type APIRequestContext } from '@playwright/test'
import { freePort, waitForServer } from '../../scripts/lib/server'
import { openDatabase, operator, operatorOf, signedInCustomer, uniqueDigits } from './support'

/*
 * Two stores on one machine: store B (started here, its own port and SQLite file) is store A's
 * upstream panel. A's Spotify $10 is mapped to B's service for the same package over B's
 * /api/v2, with a B API token whitelisted for 127.0.0.1. A customer of A orders; B receives
 * it and B's operator completes it; A's order turns completed by polling and A's customer is
 * told. A second order, of four, is completed on B but for one (Partial): A refunds that one
 * once, and both wallets hold exactly what was paid and refunded.
 */

const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'
const apiToken = () => `4412|${[...randomBytes(40)].map((b) => alphabet[b % 62]).join('')}`

/** Store B, as the playwright config starts store A. */
async function startStoreB() {
  const port = await freePort()
  const database = join(process.env.E2E_DATA_DIR!, `store-b-${uniqueDigits()}.db`)
  const child = spawn('tsx', ['server/main.ts'], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      SQLITE_PATH: database,
      DATABASE_URL: '',
      LOG_LEVEL: 'warn',
      NODE_ENV: 'test',
      DEMO: '1',
      DEV_OUTBOX: '1',
      PASSWORD_HASH_COST: '12',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  })
  const url = `http://127.0.0.1:${port}`
  await waitForServer(child, url)
  const stop = async () => {
    child.kill('SIGTERM')
    if (child.exitCode === null) await new Promise((resolve) => child.once('exit', resolve))
  }
  return { url, database, stop }
}

/** A reseller account on B with 100 USD and an API token that works from 127.0.0.1 only. */
async function resellerOnB(request: APIRequestContext, b: { url: string; database: string }) {
  const n = uniqueDigits()
  const phone = `+9617${n}`
  const password = 'reseller-pass-1'
  operatorOf(
    b.database,
    'users:create',
    '--username',
    `reseller${n}`,
    '--phone',
    phone,
    '--email',
    `reseller${n}@example.com`,
    '--password',
    password,
  )
  operatorOf(b.database, 'wallet:credit', `reseller${n}`, '100', '--reason', 'e2e')
  const headers = { 'X-Requested-With': 'e2e' }
  const form = { phone_number: phone, password }
  expect(
    (await request.post(`${b.url}/api/login?check=1`, { multipart: form, headers })).ok(),
  ).toBe(true)
  const outbox = (await (
    await request.get(`${b.url}/api/dev/outbox?to=${encodeURIComponent(phone)}`)
  ).json()) as {
    data: { code: string }[]
  }
  const signedIn = await request.post(`${b.url}/api/login?auth=1`, {
    multipart: { ...form, verification_code: outbox.data[0]!.code },
    headers,
  })
  const { token } = (await signedIn.json()) as { token: string }
  const key = apiToken()
  const saved = await request.post(`${b.url}/api/user/token`, {
    multipart: { token: key, ip_whitelist: '127.0.0.1' },
    headers: { ...headers, Authorization: `Bearer ${token}` },
  })
  expect(saved.ok(), await saved.text()).toBe(true)
  return { username: `reseller${n}`, key }
}

/** One row of a store's SQLite file. */
function row<T>(database: string | undefined, query: string, ...params: (string | number)[]): T {
  const db = database ? new DatabaseSync(database, { readOnly: true }) : openDatabase()
  try {
    return db.prepare(query).get(...params) as T
  } finally {
    db.close()
  }
}

test('store B is store A’s upstream: completed and Partial orders flow back, wallets exact', async ({
  page,
  request,
}) => {
  // Two stores, operator commands on both, and several rounds of polling.
  test.slow()
  const b = await startStoreB()
  try {
    const reseller = await resellerOnB(request, b)
    const pkg = row<{ id: number }>(
      undefined,
      `select id from packages where product_id = 55 and name_en = 'Spotify $10'`,
    ).id
    const panel = `storeb${uniqueDigits()}`
    expect(operator('upstream:add', panel, `${b.url}/api/v2`, '--key', reseller.key)).toMatchObject(
      {
        balance: '100',
        currency: 'USD',
      },
    )
    // B's service for the same package: 2 then its id (docs/api.md).
    operator('upstream:map', String(pkg), panel, `2${pkg}`)

    const customer = await signedInCustomer(page, request, { balance: '100' })
    await page.goto(`/#/products/products-4/packages/${pkg}`)
    await page.getByRole('button', { name: 'Buy', exact: true }).click()
    await page.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click()
    await expect(page).toHaveURL(/#\/Orders/)
    const first = row<{ id: number; total_price: number }>(
      undefined,
      `select id, total_price from orders where user_id = (select id from users where username = ?) order by id`,
      customer.username,
    )

    // B receives it from A's background loop, as an order of the reseller's.
    const upstreamOf = (orderId: number) =>
      row<{ upstream_id: string | null } | undefined>(
        undefined,
        'select upstream_id from upstream_orders where order_id = ?',
        orderId,
      )?.upstream_id ?? null
    await expect.poll(() => upstreamOf(first.id), { timeout: 15_000 }).not.toBeNull()
    const onB = Number(upstreamOf(first.id))
    expect(
      row<{ username: string; status: string }>(
        b.database,
        'select users.username, orders.status from orders join users on users.id = orders.user_id where orders.id = ?',
        onB,
      ),
    ).toEqual({ username: reseller.username, status: 'WAITING' })

    // B's operator completes it; A's order turns completed by polling, and its customer is told.
    operatorOf(b.database, 'orders:complete', String(onB))
    const rowOnA = page.getByRole('row').filter({ hasText: 'Spotify $10' })
    await expect(async () => {
      await page.reload()
      await expect(rowOnA).toContainText('Completed', { timeout: 1000 })
    }).toPass({ timeout: 20_000 })
    await page.getByRole('button', { name: /^Notifications/ }).click()
    await expect(
      page.getByRole('banner').getByRole('region', { name: 'Notifications' }),
    ).toContainText('Your order for Spotify Gift Card (US)')

    // Four more; B delivers all but one (Partial): A refunds one quarter, once.
    const reply = await request.post('/api/automated/get/packages', {
      headers: { Authorization: `Bearer ${customer.token}` },
      multipart: { package_id: String(pkg), quantity: '4' },
    })
    expect(reply.ok(), await reply.text()).toBe(true)
    const second = ((await reply.json()) as { data: { id: number } }).data.id
    await expect.poll(() => upstreamOf(second), { timeout: 15_000 }).not.toBeNull()
    const secondOnB = Number(upstreamOf(second))
    expect(
      operatorOf(b.database, 'orders:complete', String(secondOnB), '--remains', '1'),
    ).toMatchObject({
      remains: 1,
    })
    const statusOnA = (id: number) =>
      row<{ status: string }>(undefined, 'select status from orders where id = ?', id).status
    await expect.poll(() => statusOnA(second), { timeout: 20_000 }).toBe('COMPLETED')
    // A few more rounds of polling change nothing.
    await page.waitForTimeout(1500)

    const paidOnA = row<{ total: number }>(
      undefined,
      'select total_price as total from orders where id = ?',
      second,
    ).total
    const paidOnB = [onB, secondOnB].map(
      (id) =>
        row<{ total: number }>(
          b.database,
          'select total_price as total from orders where id = ?',
          id,
        ).total,
    )
    const refundsOf = (database: string | undefined, username: string) =>
      row<{ n: number; sum: number | null }>(
        database,
        `select count(*) as n, sum(value) as sum from wallet_logs
          where user_id = (select id from users where username = ?) and name like 'Refund of 1 undelivered%'`,
        username,
      )
    // A's customer: 100, less both orders, plus a quarter of the second, refunded once.
    expect(refundsOf(undefined, customer.username)).toEqual({ n: 1, sum: paidOnA / 4 })
    const balanceOf = (database: string | undefined, username: string) =>
      row<{ balance: number }>(database, 'select balance from users where username = ?', username)
        .balance
    expect(balanceOf(undefined, customer.username)).toBe(
      100_000_000 - first.total_price - paidOnA + paidOnA / 4,
    )
    // A's account at B: the same on B's prices.
    expect(refundsOf(b.database, reseller.username)).toEqual({ n: 1, sum: paidOnB[1]! / 4 })
    expect(balanceOf(b.database, reseller.username)).toBe(
      100_000_000 - paidOnB[0]! - paidOnB[1]! + paidOnB[1]! / 4,
    )
    // The customer sees what happened to the second order.
    await page.goto(`/#/Orders/${second}`)
    await expect(page.getByText('Delivered 3 of 4; the rest was refunded.')).toBeVisible()
  } finally {
    await b.stop()
  }
})
