import { QueryClient } from '@tanstack/react-query'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import {
  readCachedWebsiteInfo,
  WEBSITE_INFO_KEY,
  WEBSITE_INFO_TTL,
  websiteInfoQuery,
} from './website-info'

const stored = { primary_color: '#123456', secondary_color: '#abcdef', website_name: 'Stored' }
const served = { primary_color: '#654321', secondary_color: '#fedcba', website_name: 'Served' }

function serve(info: object) {
  const fetchMock = vi.fn(async () =>
    Response.json({ website_info: JSON.stringify(info) }, { status: 200 }),
  )
  vi.stubGlobal('fetch', fetchMock)
  return fetchMock
}

describe('website info', () => {
  beforeEach(() => localStorage.clear())
  afterEach(() => vi.unstubAllGlobals())

  it('uses the stored copy for an hour without asking the server', async () => {
    const fetchMock = serve(served)
    const timestamp = Date.now() - WEBSITE_INFO_TTL + 60_000
    localStorage.setItem(WEBSITE_INFO_KEY, JSON.stringify({ data: stored, timestamp }))
    const info = await new QueryClient().fetchQuery(websiteInfoQuery())
    expect(info.website_name).toBe('Stored')
    expect(fetchMock).not.toHaveBeenCalled()
  })

  it('asks again after an hour and stores the answer with a new timestamp', async () => {
    const fetchMock = serve(served)
    const timestamp = Date.now() - WEBSITE_INFO_TTL - 1
    localStorage.setItem(WEBSITE_INFO_KEY, JSON.stringify({ data: stored, timestamp }))
    const info = await new QueryClient().fetchQuery(websiteInfoQuery())
    expect(info.website_name).toBe('Served')
    expect(fetchMock).toHaveBeenCalledOnce()
    const cached = readCachedWebsiteInfo()
    expect(cached?.data.website_name).toBe('Served')
    expect(cached!.timestamp).toBeGreaterThan(timestamp)
  })

  it('ignores an unreadable stored copy', () => {
    localStorage.setItem(WEBSITE_INFO_KEY, '{not json')
    expect(readCachedWebsiteInfo()).toBeUndefined()
    localStorage.setItem(WEBSITE_INFO_KEY, JSON.stringify({ data: { nope: 1 }, timestamp: 1 }))
    expect(readCachedWebsiteInfo()).toBeUndefined()
  })
})
