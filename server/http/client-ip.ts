import type { Context } from 'hono'
import { getConnInfo } from '@hono/node-server/conninfo'

/**
 * The caller's address. With `trustProxy` hops in front, X-Forwarded-For's entries are read
 * from the right, because only the ones our own proxies appended can be believed.
 */
export function clientIp(c: Context, trustProxy: number): string | null {
  if (trustProxy > 0) {
    const hops = (c.req.header('x-forwarded-for') ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean)
    const ip = hops[hops.length - trustProxy] ?? hops[0]
    if (ip) return ip
  }
  try {
    return getConnInfo(c).remote.address ?? null
  } catch {
    // No socket behind the request, as in app.request() from tests.
    return null
  }
}

/** Whether the browser reached us over TLS, directly or through a trusted proxy. */
export function isSecureRequest(c: Context, trustProxy: number): boolean {
  if (new URL(c.req.url).protocol === 'https:') return true
  if (trustProxy === 0) return false
  const proto = c.req.header('x-forwarded-proto')?.split(',')[0]?.trim().toLowerCase()
  return proto === 'https'
}
