import { t } from '@lingui/core/macro'
import { queryOptions } from '@tanstack/react-query'
import { api } from './client'
import { ApiError } from './errors'
import { cachedWebsiteInfoOf, websiteInfoOf } from './shapes'
import type { WebsiteInfo, WebsiteInfoReply } from '../contract/site'

/**
 * localStorage key and lifetime (one hour) of the website-info copy (see docs/architecture.md,
 * The PWA).
 */
export const WEBSITE_INFO_KEY = 'website_info_data'
export const WEBSITE_INFO_TTL = 60 * 60 * 1000

export interface CachedWebsiteInfo {
  data: WebsiteInfo
  timestamp: number
}

/** The stored copy, whatever its age; undefined when missing or unreadable. */
export function readCachedWebsiteInfo(): CachedWebsiteInfo | undefined {
  try {
    const raw = localStorage.getItem(WEBSITE_INFO_KEY)
    return raw ? cachedWebsiteInfoOf(JSON.parse(raw)) : undefined
  } catch {
    return undefined
  }
}

/**
 * The info a reply carries (a JSON string), kept as read at `timestamp`; undefined, and
 * nothing kept, when it is not the info the contract describes.
 */
export function keepWebsiteInfo(
  reply: WebsiteInfoReply,
  timestamp = Date.now(),
): WebsiteInfo | undefined {
  let info
  try {
    info = websiteInfoOf(JSON.parse(reply.website_info))
  } catch {
    return undefined
  }
  if (!info) return undefined
  try {
    localStorage.setItem(WEBSITE_INFO_KEY, JSON.stringify({ data: info, timestamp }))
  } catch {
    // Storage full or refused: the info still applies for this visit.
  }
  return info
}

export async function fetchWebsiteInfo(): Promise<WebsiteInfo> {
  const reply = await api.get(
    'website/info',
    () => import('../contract/site').then((contract) => contract.WebsiteInfoReplySchema),
    { anonymous: true, localized: false },
  )
  const info = keepWebsiteInfo(reply)
  // Its JSON string breaks the contract: the same as any reply that does.
  if (!info) throw new ApiError(200, t`The server sent a reply this app does not understand.`)
  return info
}

/** Website info for the theme, the shell and prices in LBP: kept one hour. */
export const websiteInfoQuery = () =>
  queryOptions({
    queryKey: ['site', 'website-info'],
    queryFn: fetchWebsiteInfo,
    staleTime: WEBSITE_INFO_TTL,
    initialData: () => readCachedWebsiteInfo()?.data,
    initialDataUpdatedAt: () => readCachedWebsiteInfo()?.timestamp,
    meta: { persist: false },
    // A failed fetch is only logged; the default theme stays.
    retry: false,
  })
