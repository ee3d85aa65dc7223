import { afterEach, expect, it, vi } from 'vitest'
import { WebsiteInfoReplySchema as Reply } from '../contract/site'
import { api, apiUrl } from './client'
import { EARLY_REPLIES, EARLY_REPLIES_AT } from './early-replies'

afterEach(() => {
  delete (window as unknown as Record<string, unknown>)[EARLY_REPLIES]
  vi.restoreAllMocks()
})

it('a call cancelled before it read the early reply leaves it to the call made again', async () => {
  const url = apiUrl('website/info')
  let arrive = (_: Response) => {}
  ;(window as unknown as Record<string, unknown>)[EARLY_REPLIES] = {
    [EARLY_REPLIES_AT]: window.location.hash,
    [url]: new Promise<Response>((resolve) => (arrive = resolve)),
  }
  const network = vi.spyOn(globalThis, 'fetch')
  const cancelled = new AbortController()
  const first = api.get('website/info', Reply, { anonymous: true, signal: cancelled.signal })
  cancelled.abort()
  arrive(Response.json({ website_info: '1' }))
  await first
  expect(await api.get('website/info', Reply, { anonymous: true })).toEqual({ website_info: '1' })
  expect(network).not.toHaveBeenCalled()
  // Read once by a call that was not cancelled: the next call goes to the network.
  network.mockResolvedValue(Response.json({ website_info: '2' }))
  expect(await api.get('website/info', Reply, { anonymous: true })).toEqual({ website_info: '2' })
})

it('a call cancelled after it read the early reply, while its check loaded, leaves it to the call made again', async () => {
  const url = apiUrl('website/info')
  ;(window as unknown as Record<string, unknown>)[EARLY_REPLIES] = {
    [EARLY_REPLIES_AT]: window.location.hash,
    [url]: Promise.resolve(Response.json({ website_info: '1' })),
  }
  const network = vi.spyOn(globalThis, 'fetch')
  const cancelled = new AbortController()
  // The reply's schema comes later than the reply (a slow phone loading its chunk): the call
  // is cancelled meanwhile (its page rendered again), and the query asks again.
  let schemaLoaded = () => {}
  const schema = new Promise<void>((resolve) => (schemaLoaded = resolve)).then(() => Reply)
  const first = api.get('website/info', () => schema, {
    anonymous: true,
    signal: cancelled.signal,
  })
  // The reply has been read.
  await new Promise((resolve) => setTimeout(resolve))
  cancelled.abort()
  schemaLoaded()
  await first.catch(() => {})
  expect(await api.get('website/info', Reply, { anonymous: true })).toEqual({ website_info: '1' })
  expect(network).not.toHaveBeenCalled()
})
