import { randomUUID } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { TLSSocket } from 'node:tls'
import type { Config } from '../config'
import { DEFAULT_LOCALE, isLocale } from '../i18n'
import type { Logger } from '../log'
import { forwardedSecure } from './client-ip'
import {
  encodingFor,
  entryHeaders,
  etagMatches,
  gzipOf,
  queryOf,
  replyKey,
  type ReplyCache,
} from './reply-cache'
import { HSTS, securityHeaderList } from './security'

/** A request handler in front of the app: true when it answered the request itself. */
export type Lane = (req: IncomingMessage, res: ServerResponse) => boolean | Promise<boolean>

type Listener = (req: IncomingMessage, res: ServerResponse) => unknown

/** The app's listener with a lane in front: what the lane does not answer reaches the app. */
export function withLane(lane: Lane, listener: Listener): Listener {
  return (req, res) => {
    let taken: boolean | Promise<boolean>
    try {
      taken = lane(req, res)
    } catch {
      taken = false
    }
    if (taken === false) return listener(req, res)
    if (taken === true) return
    // A lane that failed (the database unreachable) leaves the answer, and the log, to the app.
    return taken.then(
      (done) => (done ? undefined : listener(req, res)),
      () => listener(req, res),
    )
  }
}

/** As hono/request-id: the caller's id when it is short and plain, else a new one. */
function requestIdOf(header: string | string[] | undefined): string {
  return typeof header === 'string' && header.length > 0 && header.length <= 255
    ? /[^\w\-=]/.test(header)
      ? randomUUID()
      : header
    : randomUUID()
}

/**
 * Answers the public reads that are already in the reply cache (http/reply-cache.ts) straight
 * on Node's request and response, without building the Fetch API objects the app works with:
 * the same status, body and headers as the app would send for them (request id, security
 * headers, caching headers, gzip), and the same log line. Anything else, a cache miss
 * included, goes on to the app, which fills the cache. The content version is still read for
 * every request, so a reply never outlives the data it came from.
 */
export function sharedReplyLane(replies: ReplyCache, config: Config, logger: Logger): Lane {
  const always = securityHeaderList(config)
  const cors = config.corsOrigins.length > 0
  return (req, res) => {
    const method = req.method
    const url = req.url
    if ((method !== 'GET' && method !== 'HEAD') || url === undefined) return false
    // Paths the app would decode or that are not plain API paths go the long way.
    if (!url.startsWith('/api/') || url.includes('%') || url.includes('#')) return false
    // The app's CORS middleware answers requests with an Origin.
    if (cors && req.headers.origin !== undefined) return false
    return answer(req, res, method, url)
  }

  async function answer(
    req: IncomingMessage,
    res: ServerResponse,
    method: string,
    url: string,
  ): Promise<boolean> {
    const started = performance.now()
    const query = queryOf(url)
    const q = url.indexOf('?')
    const path = q < 0 ? url : url.slice(0, q)
    const asked = query === '' ? undefined : new URLSearchParams(query).get('local')?.toLowerCase()
    const locale = isLocale(asked) ? asked : DEFAULT_LOCALE
    const version = await replies.version()
    const entry = replies.get(replyKey(locale, path, query), version)
    if (!entry) return false
    const notModified = etagMatches(req.headers['if-none-match'], entry.etag)
    const encoding = encodingFor(entry, req.headers['accept-encoding'])
    if (encoding === 'deflate' && !notModified) return false
    const requestId = requestIdOf(req.headers['x-request-id'])
    res.setHeader('X-Request-Id', requestId)
    for (const [name, value] of Object.entries(entryHeaders(entry, notModified, encoding))) {
      res.setHeader(name, value)
    }
    for (const [name, value] of always) res.setHeader(name, value)
    const tls = (req.socket as Partial<TLSSocket>).encrypted === true
    const proto = req.headers['x-forwarded-proto']
    if (forwardedSecure(tls, typeof proto === 'string' ? proto : undefined, config.trustProxy)) {
      res.setHeader(...HSTS)
    }
    const status = notModified ? 304 : 200
    res.statusCode = status
    if (notModified) {
      res.end()
    } else {
      const body = encoding === 'gzip' ? gzipOf(entry) : entry.body
      res.setHeader('Content-Length', body.byteLength)
      if (method === 'HEAD') res.end()
      else res.end(body)
    }
    logger.info('request', {
      method,
      path,
      status,
      ms: Math.round((performance.now() - started) * 10) / 10,
      requestId,
    })
    return true
  }
}
