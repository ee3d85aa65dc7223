import { createHash } from 'node:crypto'
import { gzipSync } from 'node:zlib'
import type { Context, MiddlewareHandler } from 'hono'
import { parseAccept } from 'hono/utils/accept'
import type { Locale } from '../../src/contract/common'
import { FreshRead } from '../services/content-version'

/** What a shared reply may be kept for by browsers, CDNs and the service worker. */
export const SHARED_MAX_AGE_SECONDS = 300
const SHARED_CACHE_CONTROL = `public, max-age=${SHARED_MAX_AGE_SECONDS}`
/** Replies smaller than this are not worth compressing (as hono/compress). */
const COMPRESS_MIN_BYTES = 1024

export interface Entry {
  body: Uint8Array<ArrayBuffer>
  contentType: string
  etag: string
  /** Made on the first request that accepts gzip. */
  gzip?: Uint8Array<ArrayBuffer>
}

/**
 * The serialized replies of the public reads (the catalogue and the site content), kept in
 * memory per process. They are the same for every caller: nothing in them depends on who
 * asks (prices are the catalogue's own figures; what a company account or a customer pays is
 * worked out from them, by the storefront and by the order call), so an entry is keyed by the
 * path, the query and the language only. Every entry belongs to one content version: when the
 * database's version has moved on (any write to those tables, from any process), the whole
 * cache is dropped before the reply is chosen. See docs/api.md "Caching".
 */
export class ReplyCache {
  readonly #version: FreshRead<string>
  readonly #maxEntries: number
  #entries = new Map<string, Entry>()
  #entriesVersion: string | undefined

  constructor(readVersion: () => Promise<string>, { maxEntries = 2000 } = {}) {
    this.#version = new FreshRead(readVersion)
    this.#maxEntries = maxEntries
  }

  /** The current content version, read from the database after the call began. */
  async version(): Promise<string> {
    const version = await this.#version.get()
    if (version !== this.#entriesVersion) {
      this.#entries = new Map()
      this.#entriesVersion = version
    }
    return version
  }

  get(key: string, version: string): Entry | undefined {
    return version === this.#entriesVersion ? this.#entries.get(key) : undefined
  }

  /** Keeps an entry made from data read at `version` (or later: see sharedReply). */
  set(key: string, version: string, entry: Entry) {
    if (version !== this.#entriesVersion) return
    // Oldest first: unusual queries (a search, a cache-buster) cannot grow it without bound.
    if (this.#entries.size >= this.#maxEntries) {
      const oldest = this.#entries.keys().next().value
      if (oldest !== undefined) this.#entries.delete(oldest)
    }
    this.#entries.set(key, entry)
  }

  get size() {
    return this.#entries.size
  }
}

/**
 * The cache key: language, path, and the other query parameters in a fixed order. Built the
 * same way by sharedReply (from Hono's request) and by the fast lane (from the raw URL).
 */
export function replyKey(locale: Locale, path: string, query: string): string {
  if (query === '') return `${locale} ${path}`
  const params = new URLSearchParams(query)
  params.delete('local')
  params.sort()
  return `${locale} ${path}?${params.toString()}`
}

/** The query string of a URL or of a path with a query, without the `?`. */
export function queryOf(url: string): string {
  const q = url.indexOf('?')
  return q < 0 ? '' : url.slice(q + 1)
}

/** A strong entity tag of a reply's body: its hash. */
export const etagOf = (body: string | Uint8Array) =>
  `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`

/** If-None-Match matches when it lists the tag (weak or strong) or is `*`. */
export function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false
  for (const part of ifNoneMatch.split(',')) {
    const tag = part.trim()
    if (tag === '*' || tag === etag || tag === `W/${etag}`) return true
  }
  return false
}

/**
 * How an entry is sent to a client with this Accept-Encoding, choosing as hono/compress
 * does between gzip and deflate: 'gzip' (kept compressed in the entry), 'identity', or
 * 'deflate', which only the app's compress middleware makes.
 */
export function encodingFor(
  entry: Entry,
  acceptEncoding: string | undefined,
): 'gzip' | 'deflate' | 'identity' {
  if (acceptEncoding === undefined || entry.body.byteLength < COMPRESS_MIN_BYTES) return 'identity'
  const accepts = parseAccept(acceptEncoding)
  const wildcard = accepts.find((a) => a.type === '*')?.q
  const q = (name: string) => accepts.find((a) => a.type.toLowerCase() === name)?.q ?? wildcard ?? 0
  const gzip = q('gzip')
  const deflate = q('deflate')
  if (gzip > 0 && gzip >= deflate) return 'gzip'
  return deflate > 0 ? 'deflate' : 'identity'
}

export function gzipOf(entry: Entry): Uint8Array<ArrayBuffer> {
  entry.gzip ??= new Uint8Array(gzipSync(entry.body))
  return entry.gzip
}

/** The headers of a reply from an entry, besides the ones every reply carries. */
export function entryHeaders(entry: Entry, notModified: boolean, encoding: string) {
  const headers: Record<string, string> = {
    'Cache-Control': SHARED_CACHE_CONTROL,
    ETag: entry.etag,
    Vary: 'Accept-Encoding',
  }
  if (notModified) return headers
  headers['Content-Type'] = entry.contentType
  if (encoding === 'gzip') headers['Content-Encoding'] = 'gzip'
  return headers
}

/** What the shared replies read of a request (the app's env has more: http/env.ts). */
interface CacheEnv {
  Variables: { replies: ReplyCache; locale: Locale }
}

function reply(c: Context<CacheEnv>, entry: Entry): Response {
  const notModified = etagMatches(c.req.header('if-none-match'), entry.etag)
  const encoding = encodingFor(entry, c.req.header('accept-encoding'))
  const headers = entryHeaders(entry, notModified, encoding)
  if (notModified) return c.body(null, 304, headers)
  // Deflate, rarely asked for alone, is left to the compress middleware; the length tells it
  // (as the fast lane does) to leave small replies as they are.
  const body = encoding === 'gzip' ? gzipOf(entry) : entry.body
  headers['Content-Length'] = String(body.byteLength)
  return c.body(body, 200, headers)
}

/**
 * For GET routes whose successful replies are the same for every caller (docs/api.md
 * "Caching"): answers from the in-memory copy while the content version is unchanged, with a
 * strong ETag and 304 to a matching If-None-Match, and `Cache-Control: public, max-age=300`.
 * Other statuses are neither kept nor marked shareable.
 */
export function sharedReply(): MiddlewareHandler<CacheEnv> {
  return async (c, next) => {
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') return next()
    const cache = c.var.replies
    // Read before the data: an entry made now holds data at least this new, so keeping it
    // under this version never serves older data than the version promises.
    const version = await cache.version()
    const key = replyKey(c.var.locale, c.req.path, queryOf(c.req.url))
    const hit = cache.get(key, version)
    if (hit) return reply(c, hit)
    await next()
    if (c.res.status !== 200) return
    const body = new Uint8Array(await c.res.arrayBuffer())
    const entry: Entry = {
      body,
      contentType: c.res.headers.get('content-type') ?? 'application/json',
      etag: etagOf(body),
    }
    cache.set(key, version, entry)
    c.res = reply(c, entry)
  }
}
