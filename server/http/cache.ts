import type { MiddlewareHandler } from 'hono'

/** API replies default to this: they may carry a signed-in user's data. */
export const NO_STORE = 'no-store'

/**
 * Marks a route's successful replies as shareable by browsers and CDNs for a short while.
 * Only for replies that are the same for every user (site content, the catalogue).
 */
export function publicCache(maxAgeSeconds = 300): MiddlewareHandler {
  const value = `public, max-age=${maxAgeSeconds}`
  return async (c, next) => {
    await next()
    if (c.res.status >= 200 && c.res.status < 300) c.header('Cache-Control', value)
  }
}

/** Anything under /api that did not choose otherwise is not stored anywhere. */
export const noStoreByDefault: MiddlewareHandler = async (c, next) => {
  await next()
  if (!c.res.headers.has('Cache-Control')) c.header('Cache-Control', NO_STORE)
}
