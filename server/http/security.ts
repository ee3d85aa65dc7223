import type { MiddlewareHandler } from 'hono'
import type { Config } from '../config'
import { isSecureRequest } from './client-ip'

/** Firebase (push, installations) talks to these from the page. */
const FIREBASE_CONNECT = ['https://*.googleapis.com', 'https://*.firebaseio.com']

export function contentSecurityPolicy(config: Pick<Config, 'cspConnectSrc'>): string {
  const connect = ["'self'", ...config.cspConnectSrc, ...FIREBASE_CONNECT]
  return [
    "default-src 'self'",
    "script-src 'self'",
    // Styles set from website-info colours at run time are inline; scripts never are.
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

/** Headers for every reply, API and static alike, errors included. */
export function securityHeaders(config: Config): MiddlewareHandler {
  const csp = contentSecurityPolicy(config)
  return async (c, next) => {
    await next()
    c.header('Content-Security-Policy', csp)
    c.header('X-Content-Type-Options', 'nosniff')
    c.header('Referrer-Policy', 'strict-origin-when-cross-origin')
    c.header('X-Frame-Options', 'DENY')
    // Over plain HTTP the header is ignored by browsers, and it would pin a dev host to TLS.
    if (isSecureRequest(c, config.trustProxy)) {
      c.header('Strict-Transport-Security', 'max-age=63072000; includeSubDomains')
    }
  }
}
