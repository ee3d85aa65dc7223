import { describe, expect, it } from 'vitest'
import { ProviderError, type ProviderOrder } from './provider'
import { createProvider } from './providers'
import { createHttpProvider } from './provider-http'
import { createLocalProvider } from './provider-local'

const config = { url: 'https://provider.example/api', token: 'secret', timeoutMs: 1000 }

interface Call {
  url: string
  method: string
  headers: Record<string, string>
  body: unknown
}

function fakeFetch(answer: (call: Call) => Response | Promise<Response>) {
  const calls: Call[] = []
  const fetch = (async (input: string | URL | Request, init?: RequestInit) => {
    const call: Call = {
      url: String(input),
      method: init?.method ?? 'GET',
      headers: Object.fromEntries(new Headers(init?.headers).entries()),
      body: init?.body ? JSON.parse(String(init.body)) : undefined,
    }
    calls.push(call)
    return answer(call)
  }) as typeof globalThis.fetch
  return { fetch, calls }
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })

const anOrder: ProviderOrder = {
  id: 42,
  productId: 1,
  packageId: 2,
  providerPackageId: 5002,
  productReference: 'PUBGM',
  quantity: 1,
  playerNumber: '5123456789',
  playerName: 'Player 5123456789',
  serviceType: null,
  socialLink: null,
  walletAddress: null,
  emailOrPhoneNumber: null,
  password: null,
  contactNumber: null,
  requirements: { server: '2001' },
}

describe('local provider', () => {
  const local = createLocalProvider()

  it('finds "Player <number>" for 5 to 12 digits not starting with 0, on the demo searches', async () => {
    for (const api of [
      { kind: 'id', id: 1 },
      { kind: 'name', name: 'pubg-mobile' },
    ] as const) {
      expect(await local.lookupPlayer(api, '12345')).toEqual({ found: true, name: 'Player 12345' })
      expect(await local.lookupPlayer(api, '123456789012')).toMatchObject({ found: true })
      for (const number of ['1234', '1234567890123', '0123456', '12a45', '']) {
        expect(await local.lookupPlayer(api, number), number).toEqual({ found: false })
      }
    }
    expect(await local.lookupPlayer({ kind: 'id', id: 2 }, '12345')).toEqual({ found: false })
    expect(await local.lookupPlayer({ kind: 'name', name: 'other' }, '12345')).toEqual({
      found: false,
    })
  })

  it('takes every order and leaves it waiting', async () => {
    expect(await local.placeOrder(anOrder)).toEqual({ ref: 'local-42', status: 'WAITING' })
    expect(await local.orderStatus(['local-42'])).toEqual([{ ref: 'local-42', status: 'WAITING' }])
  })

  it('is the default; PROVIDER_URL selects the HTTP one', () => {
    expect(createProvider({ provider: undefined }).kind).toBe('local')
    expect(createProvider({ provider: config }).kind).toBe('http')
  })
})

describe('HTTP provider', () => {
  it('searches players by API id or name, with the token; 404 is "not found"', async () => {
    const { fetch, calls } = fakeFetch((call) =>
      call.url.includes('number=404404')
        ? new Response('', { status: 404 })
        : json({ username: 'Ali' }),
    )
    const provider = createHttpProvider(config, { fetch })
    expect(await provider.lookupPlayer({ kind: 'id', id: 7 }, '123456')).toEqual({
      found: true,
      name: 'Ali',
    })
    expect(await provider.lookupPlayer({ kind: 'name', name: 'pubg mobile' }, '404404')).toEqual({
      found: false,
    })
    expect(calls.map((c) => c.url)).toEqual([
      'https://provider.example/api/players?api_id=7&number=123456',
      'https://provider.example/api/players?api_name=pubg+mobile&number=404404',
    ])
    expect(calls[0]!.headers.authorization).toBe('Bearer secret')
  })

  it('turns errors, unusable answers and unreachable servers into ProviderError', async () => {
    const answers = [
      () => new Response('oops', { status: 500 }),
      () => json({ name: 'wrong field' }),
      () => new Response('not json'),
      () => {
        throw new TypeError('fetch failed')
      },
    ]
    for (const answer of answers) {
      const provider = createHttpProvider(config, { fetch: fakeFetch(answer).fetch })
      await expect(provider.lookupPlayer({ kind: 'id', id: 1 }, '12345')).rejects.toBeInstanceOf(
        ProviderError,
      )
    }
  })

  it('gives up after PROVIDER_TIMEOUT_MS', async () => {
    const fetch = ((_: unknown, init?: RequestInit) =>
      new Promise((_resolve, reject) =>
        init?.signal?.addEventListener('abort', () => reject(init.signal?.reason)),
      )) as typeof globalThis.fetch
    const provider = createHttpProvider({ ...config, timeoutMs: 100 }, { fetch })
    const started = Date.now()
    await expect(provider.orderStatus(['a'])).rejects.toBeInstanceOf(ProviderError)
    expect(Date.now() - started).toBeLessThan(2000)
  })

  it('hands orders over with a key per order; a 4xx refusal is FAILED', async () => {
    const { fetch, calls } = fakeFetch((call) =>
      (call.body as { quantity: number }).quantity === 9
        ? json({ message: 'no stock' }, 422)
        : json({ reference: 'PRV-1' }, 201),
    )
    const provider = createHttpProvider(config, { fetch })
    expect(await provider.placeOrder(anOrder)).toEqual({ ref: 'PRV-1', status: 'WAITING' })
    expect(calls[0]).toMatchObject({
      url: 'https://provider.example/api/orders',
      method: 'POST',
      headers: { 'idempotency-key': 'order-42', 'content-type': 'application/json' },
      body: {
        reference: '42',
        provider_package_id: 5002,
        product_reference: 'PUBGM',
        player_number: '5123456789',
        requirements: { server: '2001' },
      },
    })
    expect(await provider.placeOrder({ ...anOrder, quantity: 9 })).toEqual({
      ref: null,
      status: 'FAILED',
      detail: '{"message":"no stock"}',
    })
    const down = createHttpProvider(config, {
      fetch: fakeFetch(() => new Response('', { status: 503 })).fetch,
    })
    await expect(down.placeOrder(anOrder)).rejects.toBeInstanceOf(ProviderError)
  })

  it('asks for order states in batches of 100', async () => {
    const { fetch, calls } = fakeFetch((call) => {
      const refs = (call.body as { references: string[] }).references
      return json({
        orders: refs.map((reference) =>
          reference === 'r0'
            ? { reference, status: 'COMPLETED', codes: ['C-1'], note: 'ok', expiry_date: null }
            : { reference, status: 'WAITING' },
        ),
      })
    })
    const provider = createHttpProvider(config, { fetch })
    const refs = Array.from({ length: 150 }, (_, i) => `r${i}`)
    const states = await provider.orderStatus(refs)
    expect(calls.map((c) => (c.body as { references: string[] }).references.length)).toEqual([
      100, 50,
    ])
    expect(states).toHaveLength(150)
    expect(states[0]).toEqual({
      ref: 'r0',
      status: 'COMPLETED',
      codes: ['C-1'],
      note: 'ok',
      reason: undefined,
      expiryDate: undefined,
    })
  })
})
