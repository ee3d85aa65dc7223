import type { Context } from 'hono'
import { getConnInfo } from '@hono/node-server/conninfo'
import ipaddr from 'ipaddr.js'

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
  return forwardedSecure(
    c.req.url.startsWith('https:'),
    c.req.header('x-forwarded-proto'),
    trustProxy,
  )
}

/** isSecureRequest from its parts: the connection's own TLS, and X-Forwarded-Proto. */
export function forwardedSecure(
  tls: boolean,
  forwardedProto: string | undefined,
  trustProxy: number,
): boolean {
  if (tls) return true
  if (trustProxy === 0) return false
  return forwardedProto?.split(',')[0]?.trim().toLowerCase() === 'https'
}

/**
 * The address as the limits count it: IPv4 as it is (an IPv4-mapped IPv6 address too), IPv6 by
 * its /64, because one customer line or one server is given a whole /64 and can pick any
 * address in it for each request. Anything unparsable (a forged header) is kept as written.
 */
export function addressKey(ip: string | null): string | null {
  if (ip === null || ip.trim() === '') return null
  let parsed: ipaddr.IPv4 | ipaddr.IPv6
  try {
    parsed = ipaddr.process(ip.trim())
  } catch {
    return ip.trim().slice(0, 64)
  }
  if (parsed.kind() === 'ipv4') return parsed.toString()
  const parts = (parsed as ipaddr.IPv6).parts.slice(0, 4)
  return `${parts.map((n) => n.toString(16)).join(':')}::/64`
}

/** The client's address key (see addressKey), straight from the request. */
export const clientAddressKey = (c: Context, trustProxy: number) =>
  addressKey(clientIp(c, trustProxy))
