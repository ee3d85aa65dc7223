import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

/**
 * An SMM panel's API v2 for tests, over real HTTP on 127.0.0.1: it reads the form posts the
 * store sends (as a panel reads the posts of its clients' PHP `Api` class), keeps every `add`
 * it received, and answers as told: an order id, an `{"error"}`, or nothing (a hang).
 */

export type AddAnswer = { order: number } | { error: string } | 'hang'

export interface FakePanel {
  url: string
  key: string
  /** Every form posted, in order. */
  calls: Record<string, string>[]
  /** The `add` forms received. */
  adds(): Record<string, string>[]
  /** What the next adds answer; by default a new order id each. */
  onAdd: (form: Record<string, string>) => AddAnswer
  /** Status per the panel's order id; an id without one is `Incorrect order ID`. */
  statuses: Map<string, Record<string, string>>
  balance: string
  close(): Promise<void>
}

export const FAKE_SERVICES = [
  {
    service: 101,
    name: 'Gift card 5 USD',
    type: 'Default',
    category: 'Cards',
    rate: '4.9000',
    min: '1',
    max: '100',
    refill: false,
    cancel: false,
  },
  {
    service: 102,
    name: 'Followers',
    type: 'Default',
    category: 'Social',
    rate: '0.9000',
    min: '10',
    max: '10000',
    refill: true,
    cancel: false,
  },
]

async function formOf(req: IncomingMessage): Promise<Record<string, string>> {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  return Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')))
}

export async function startFakePanel(key = 'fake-panel-key'): Promise<FakePanel> {
  let next = 5000
  const hanging = new Set<ServerResponse>()
  const panel: FakePanel = {
    url: '',
    key,
    calls: [],
    adds: () => panel.calls.filter((c) => c.action === 'add'),
    onAdd: () => ({ order: ++next }),
    statuses: new Map(),
    balance: '250.50',
    close: async () => {
      for (const res of hanging) res.destroy()
      await new Promise((resolve) => server.close(resolve))
    },
  }
  const reply = (res: ServerResponse, body: unknown) => {
    res.writeHead(200, { 'content-type': 'application/json' })
    res.end(JSON.stringify(body))
  }
  const server = createServer(async (req, res) => {
    const form = await formOf(req)
    const wellFormed =
      req.method === 'POST' && req.headers['content-type'] === 'application/x-www-form-urlencoded'
    panel.calls.push(form)
    if (!wellFormed) return reply(res, { error: 'Incorrect request' })
    if (form.key !== panel.key) return reply(res, { error: 'Invalid API key' })
    switch (form.action) {
      case 'balance':
        return reply(res, { balance: panel.balance, currency: 'USD' })
      case 'services':
        return reply(res, FAKE_SERVICES)
      case 'add': {
        const answer = panel.onAdd(form)
        if (answer === 'hang') {
          hanging.add(res)
          return
        }
        return reply(res, answer)
      }
      case 'status': {
        const ids = (form.orders ?? form.order ?? '').split(',')
        return reply(
          res,
          Object.fromEntries(
            ids.map((id) => [id, panel.statuses.get(id) ?? { error: 'Incorrect order ID' }]),
          ),
        )
      }
      default:
        return reply(res, { error: 'Incorrect request' })
    }
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  panel.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v2`
  return panel
}
