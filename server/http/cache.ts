import type { Context, MiddlewareHandler } from 'hono'

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
  if (!c.res.headers.has('Cache-Control')) setReplyHeader(c, 'Cache-Control', NO_STORE)
}

/**
 * Sets a header on the reply a handler has made. c.header() would copy the whole reply, body
 * and all, into a new Response for every header (it must, for a Response whose headers are
 * immutable, such as one from fetch()), which costs more than the rest of a small API call;
 * only such a reply goes that way here.
 */
export function setReplyHeader(c: Context, name: string, value: string): void {
  try {
    c.res.headers.set(name, value)
  } catch {
    c.header(name, value)
  }
}
