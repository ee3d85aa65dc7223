import { QueryClient } from '@tanstack/react-query'
import { afterEach, expect, it, vi } from 'vitest'
import { orderQueries } from './queries'

afterEach(() => vi.restoreAllMocks())

const page = (status: string) => ({
  data: [
    {
      id: 1,
      product_name: 'PUBG Mobile UC',
      quantity: 1,
      total_price: 1,
      currency: 'USD',
      status,
      item_codes: [],
      user: { username: 'demo', phone_number: '+96170000001' },
      date: '2026-12-02',
      time: '10:00',
    },
  ],
  total: 1,
  per_page: 15,
  current_page: 1,
  last_page: 1,
})

/** The orders' list as its query reads it, with the status refresh answering `updated`. */
async function listWith(updated: number) {
  const asked: string[] = []
  let status = 'WAITING'
  let listAskedMeanwhile = false
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
    const { pathname } = new URL(String(input), window.location.href)
    asked.push(pathname)
    if (pathname.endsWith('/status/bulk')) {
      // The provider's answer lands while the list is on its way.
      await new Promise((resolve) => setTimeout(resolve, 50))
      listAskedMeanwhile = asked.includes('/api/orders')
      if (updated) status = 'COMPLETED'
      return Response.json({ message: 'Your orders are up to date.', data: { updated } })
    }
    return Response.json(page(status))
  })
  const reply = await new QueryClient().fetchQuery(
    orderQueries.list({ page: 1, status: undefined }),
  )
  const lists = asked.filter((path) => path === '/api/orders').length
  return { listAskedMeanwhile, lists, statuses: reply.data.map((order) => order.status) }
}

it('asks for the list beside the status refresh, and again only when the refresh changed an order', async () => {
  expect(await listWith(0)).toEqual({ listAskedMeanwhile: true, lists: 1, statuses: ['WAITING'] })
  expect(await listWith(1)).toEqual({
    listAskedMeanwhile: true,
    lists: 2,
    statuses: ['COMPLETED'],
  })
})
