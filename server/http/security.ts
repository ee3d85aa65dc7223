import type { MiddlewareHandler } from 'hono'
import type { Config } from '../config'
import { setReplyHeader } from './cache'
import { isSecureRequest } from './client-ip'
import { INLINE_SCRIPT_HASHES } from './first-screen'

/** Firebase (push, installations) talks to these from the page. */
const FIREBASE_CONNECT = ['https://*.googleapis.com', 'https://*.firebaseio.com']

export function contentSecurityPolicy(config: Pick<Config, 'cspConnectSrc'>): string {
  const connect = ["'self'", ...config.cspConnectSrc, ...FIREBASE_CONNECT]
  return [
    "default-src 'self'",
    // The only inline scripts are the first screen's two (docs/api.md), allowed by their hashes.
    `script-src 'self' ${INLINE_SCRIPT_HASHES.join(' ')}`,
    // Styles set from website-info colours at run time are inline.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob: https:",
    `connect-src ${connect.join(' ')}`,
    "worker-src 'self'",
    "manifest-src 'self'",
    "frame-ancestors 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "object-src 'none'",
  ].join('; ')
}

/** The headers every reply carries, API and static alike, errors included. */
export function securityHeaderList(config: Pick<Config, 'cspConnectSrc'>): [string, string][] {
  return [
    ['Content-Security-Policy', contentSecurityPolicy(config)],
    ['X-Content-Type-Options', 'nosniff'],
    ['Referrer-Policy', 'strict-origin-when-cross-origin'],
    ['X-Frame-Options', 'DENY'],
  ]
}

/** Sent only over HTTPS: over plain HTTP browsers ignore it, and it would pin a dev host to TLS. */
export const HSTS: [string, string] = [
  'Strict-Transport-Security',
  'max-age=63072000; includeSubDomains',
]

/** Headers for every reply, API and static alike, errors included. */
export function securityHeaders(config: Config): MiddlewareHandler {
  const headers = securityHeaderList(config)
  return async (c, next) => {
    await next()
    for (const [name, value] of headers) setReplyHeader(c, name, value)
    if (isSecureRequest(c, config.trustProxy)) setReplyHeader(c, ...HSTS)
  }
}
