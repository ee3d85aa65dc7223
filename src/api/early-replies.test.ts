import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import {
  EARLY_REPLIES,
  EARLY_REPLIES_AT,
  EARLY_REPLIES_TOKEN,
  settleEarlyReply,
  takeEarlyReply,
} from './early-replies'

const url = 'http://localhost/api/products/1?local=en'
const stash = (replies: Record<string, Promise<Response>>, at = window.location.hash, token = '') =>
  ((window as unknown as Record<string, unknown>)[EARLY_REPLIES] = {
    [EARLY_REPLIES_AT]: at,
    [EARLY_REPLIES_TOKEN]: token,
    ...replies,
  })

describe('takeEarlyReply', () => {
  beforeEach(() => {
    window.location.hash = '#/products/products-1/1'
  })
  afterEach(() => {
    delete (window as unknown as Record<string, unknown>)[EARLY_REPLIES]
    vi.restoreAllMocks()
  })

  it('gives every call the reply the page asked for until one has read it', async () => {
    stash({ [url]: Promise.resolve(Response.json({ data: { id: 1 } })) })
    // A call cancelled before it read the reply, then made again: both get the same reply.
    const first = takeEarlyReply(url, {}, null)!
    const again = takeEarlyReply(url, {}, null)!
    expect(await (await again).json()).toEqual({ data: { id: 1 } })
    expect(await (await first).json()).toEqual({ data: { id: 1 } })
    settleEarlyReply(url)
    expect(takeEarlyReply(url, {}, null)).toBeUndefined()
  })

  it('gives the reply however late the storefront asks for it', async () => {
    vi.spyOn(performance, 'now').mockReturnValue(60_000)
    stash({ [url]: Promise.resolve(Response.json({ data: { id: 1 } })) })
    expect(await (await takeEarlyReply(url, {}, null))!.json()).toEqual({ data: { id: 1 } })
  })

  it('has nothing for another URL or a page without the early calls', () => {
    expect(takeEarlyReply(url, {}, null)).toBeUndefined()
    stash({ [url]: Promise.resolve(new Response()) })
    expect(takeEarlyReply(`${url}&page=2`, {}, null)).toBeUndefined()
  })

  it('has nothing once the customer has moved to another address', () => {
    stash({ [url]: Promise.resolve(new Response()) }, '#/products/products-1/2')
    expect(takeEarlyReply(url, {}, null)).toBeUndefined()
  })

  it("gives a signed-in customer's reply only to calls with the same session", async () => {
    const reply = () => Promise.resolve(Response.json({ data: { id: 1 } }))
    stash({ [url]: reply() }, undefined, 'session-a')
    expect(await (await takeEarlyReply(url, {}, 'session-a'))!.json()).toEqual({
      data: { id: 1 },
    })
    stash({ [url]: reply() }, undefined, 'session-a')
    expect(takeEarlyReply(url, {}, 'session-b')).toBeUndefined()
    stash({ [url]: reply() }, undefined, 'session-a')
    expect(takeEarlyReply(url, {}, null)).toBeUndefined()
    // Signed out, the anonymous early replies.
    stash({ [url]: reply() })
    expect(takeEarlyReply(url, {}, 'session-a')).toBeUndefined()
  })

  it('asks the network when the early call failed', async () => {
    const network = vi.spyOn(globalThis, 'fetch').mockResolvedValue(Response.json({ ok: 1 }))
    stash({ [url]: Promise.reject(new TypeError('Failed to fetch')) })
    expect(await (await takeEarlyReply(url, {}, null))!.json()).toEqual({ ok: 1 })
    expect(network).toHaveBeenCalledWith(url, {})
    expect(takeEarlyReply(url, {}, null)).toBeUndefined()
  })
})
