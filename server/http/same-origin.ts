import { createMiddleware } from 'hono/factory'
import type { AppEnv } from './env'
import { ApiError } from '../core/errors'

/** Content types a cross-site page may post without asking first (a CORS "simple" request). */
const SIMPLE_TYPES = ['application/x-www-form-urlencoded', 'multipart/form-data', 'text/plain']

/** The host the browser addressed: X-Forwarded-Host when a trusted proxy set it. */
function requestHost(headers: (name: string) => string | undefined, url: string, proxies: number) {
  const forwarded = proxies > 0 ? headers('x-forwarded-host')?.split(',')[0]?.trim() : undefined
  return (forwarded || headers('host') || new URL(url).host).toLowerCase()
}

/**
 * For the calls that send a code (they cost money and reach a person): any page on the web can
 * make a browser post a form to us, so a "simple" request must come from our own pages (its
 * Origin names this host, or one of CORS_ORIGINS). A request with `X-Requested-With` or a
 * non-form content type is not simple: a browser asks first (CORS), and only CORS_ORIGINS get
 * a yes. The storefront needs nothing special: browsers send Origin with every POST. Other
 * clients (scripts, curl) add `X-Requested-With`.
 */
export const sameOriginOnly = createMiddleware<AppEnv>(async (c, next) => {
  const type = (c.req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase()
  const simple = SIMPLE_TYPES.includes(type) || type === ''
  if (c.req.header('x-requested-with') || !simple) return next()
  const origin = c.req.header('origin')
  if (origin && origin !== 'null') {
    let host: string | undefined
    try {
      host = new URL(origin).host.toLowerCase()
    } catch {
      host = undefined
    }
    const ours = requestHost((n) => c.req.header(n), c.req.url, c.var.config.trustProxy)
    if (host === ours || c.var.config.corsOrigins.includes(origin)) return next()
  }
  throw new ApiError(403, 'errors.cross_site')
})
