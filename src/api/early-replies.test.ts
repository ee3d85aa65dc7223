import { afterEach, describe, expect, it, vi } from 'vitest'
import { EARLY_REPLIES, takeEarlyReply } from './early-replies'

const url = 'http://localhost/api/products/1?local=en'
const stash = (replies: Record<string, Promise<Response>>) =>
  ((window as unknown as Record<string, unknown>)[EARLY_REPLIES] = replies)

describe('takeEarlyReply', () => {
  afterEach(() => {
    delete (window as unknown as Record<string, unknown>)[EARLY_REPLIES]
    vi.restoreAllMocks()
  })

  it('gives the reply the page asked for once, then leaves the call to the network', async () => {
    const reply = Promise.resolve(Response.json({ data: { id: 1 } }))
    stash({ [url]: reply })
    expect(takeEarlyReply(url)).toBe(reply)
    expect(takeEarlyReply(url)).toBeUndefined()
  })

  it('has nothing for another URL or a page without the early calls', () => {
    expect(takeEarlyReply(url)).toBeUndefined()
    stash({ [url]: Promise.resolve(new Response()) })
    expect(takeEarlyReply(`${url}&page=2`)).toBeUndefined()
  })

  it('does not give a reply asked for long ago: it could be stale', () => {
    stash({ [url]: Promise.resolve(new Response()) })
    vi.spyOn(performance, 'now').mockReturnValue(60_000)
    expect(takeEarlyReply(url)).toBeUndefined()
  })
})
