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
