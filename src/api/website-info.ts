import * as v from 'valibot'
import { queryOptions } from '@tanstack/react-query'
import { api } from './client'
import {
  WebsiteInfoReplySchema,
  WebsiteInfoSchema,
  type WebsiteInfo,
  type WebsiteInfoReply,
} from '../contract/site'

/**
 * localStorage key and lifetime (one hour) of the website-info copy (see docs/architecture.md,
 * The PWA).
 */
export const WEBSITE_INFO_KEY = 'website_info_data'
export const WEBSITE_INFO_TTL = 60 * 60 * 1000

const CachedSchema = v.object({ data: WebsiteInfoSchema, timestamp: v.number() })
export type CachedWebsiteInfo = v.InferOutput<typeof CachedSchema>

/** The stored copy, whatever its age; undefined when missing or unreadable. */
export function readCachedWebsiteInfo(): CachedWebsiteInfo | undefined {
  try {
    const raw = localStorage.getItem(WEBSITE_INFO_KEY)
    if (!raw) return undefined
    const parsed = v.safeParse(CachedSchema, JSON.parse(raw))
    return parsed.success ? parsed.output : undefined
  } catch {
    return undefined
  }
}

/** The info a reply carries (a JSON string), kept as read at `timestamp`. */
export function keepWebsiteInfo(reply: WebsiteInfoReply, timestamp = Date.now()): WebsiteInfo {
  const info = v.parse(WebsiteInfoSchema, JSON.parse(reply.website_info))
  try {
    localStorage.setItem(WEBSITE_INFO_KEY, JSON.stringify({ data: info, timestamp }))
  } catch {
    // Storage full or refused: the info still applies for this visit.
  }
  return info
}

export async function fetchWebsiteInfo(): Promise<WebsiteInfo> {
  const reply = await api.get('website/info', WebsiteInfoReplySchema, {
    anonymous: true,
    localized: false,
  })
  return keepWebsiteInfo(reply)
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
