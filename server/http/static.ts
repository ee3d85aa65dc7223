import { existsSync, readFileSync, statSync } from 'node:fs'
import { getMimeType } from 'hono/utils/mime'
import { join, resolve } from 'node:path'
import { Hono, type Context, type MiddlewareHandler } from 'hono'
import { serveStatic } from '@hono/node-server/serve-static'
import { getCookie, setCookie } from 'hono/cookie'
import { LANGUAGE_COOKIE, SIGNED_IN_COOKIE, VISITED_COOKIE } from '../../src/api/storage-keys'
import {
  isListRoute,
  screenRouteOf,
  type CatalogueRoute,
  type ListScreen,
} from '../../src/app/screen-routes'
import type { Locale } from '../../src/contract/common'
import type { ListScreenReplies } from '../../src/contract/list-screens'
import type { FirstScreen, RouteScreen, RouteScreenReplies } from '../../src/contract/site'
import type { RenderedFirstScreen, RenderedRouteScreen } from '../../src/entry-server'
import type { Config } from '../config'
import type { AppEnv } from './env'
import { firstScreenRenderer, formStylesOf, withFirstScreen } from './first-screen'
import { etagMatches, etagOf } from './reply-cache'
import { t, type MessageId } from '../i18n'
import { narrowPicture, pictureWidth } from '../services/made-pictures'

export const MEDIA_DIR = join(import.meta.dirname, '..', 'media')

export const IMMUTABLE = 'public, max-age=31536000, immutable'
export const NO_CACHE = 'no-cache'
/** The longest a browser keeps a cookie (Chromium caps it at 400 days). */
const VISITED_MAX_AGE_S = 400 * 24 * 60 * 60
const SHORT = 'public, max-age=3600'

/**
 * Files whose name stays the same across releases: the browser must ask every time, or a
 * new release (and its service worker) would never be seen.
 */
const ALWAYS_REVALIDATE = new Set(['/sw.js', '/registerSW.js', '/manifest.webmanifest'])

export function cacheControlFor(path: string): string {
  if (path.startsWith('/assets/')) return IMMUTABLE // Vite puts content hashes in these names.
  if (path === '/' || path.endsWith('.html') || path.endsWith('.webmanifest')) return NO_CACHE
  if (ALWAYS_REVALIDATE.has(path) || /^\/workbox-[\w-]+\.js$/.test(path)) return NO_CACHE
  return SHORT
}

/** A last path segment with a dot names a file; anything else is a storefront route. */
const looksLikeFile = (path: string) => /\.[^/]*$/.test(path)

/**
 * 304 when the browser's copy (If-Modified-Since) is current, so no-cache files cost a
 * round trip but not a download.
 */
async function conditional(c: Context, res: Response): Promise<Response> {
  const since = Date.parse(c.req.header('if-modified-since') ?? '')
  const modified = Date.parse(res.headers.get('last-modified') ?? '')
  if (res.status !== 200 || Number.isNaN(since) || Number.isNaN(modified) || modified > since) {
    return res
  }
  await res.body?.cancel() // closes the file opened for the body we will not send
  const headers = new Headers(res.headers)
  headers.delete('content-length')
  headers.delete('content-encoding')
  return new Response(null, { status: 304, headers })
}

/** Runs serveStatic as a lookup: the file's reply, or undefined when there is no such file. */
async function lookup(c: Context, handler: MiddlewareHandler): Promise<Response | undefined> {
  const res = await handler(c, async () => {})
  return res instanceof Response ? res : undefined
}

/** The build's copies of a file, best first, as the build writes them beside it (vite.config.ts). */
const ENCODED = [
  ['br', '.br'],
  ['gzip', '.gz'],
] as const

interface KeptFile {
  type: string
  modified: string
  /** The file as the build wrote it, and its precompressed copies. */
  bodies: { encoding?: string; body: Uint8Array<ArrayBuffer> }[]
}

/** The pictures the store makes narrower copies of (a drawing's is a PNG). */
const RESIZABLE = /^image\/(webp|jpeg|png|svg\+xml)(;|$)/

/** How many files a folder's answers keep in memory: a few releases' worth. */
const FILES_KEPT = 2_000

/** A path below a folder: names that do not start with a dot, so never `..`. */
const NAME = /^[\w-][\w.-]*(?:\/[\w-][\w.-]*)*$/

/**
 * Files whose names carry their content's hash (the build's /assets/, the shipped /media/),
 * read from disk once and then answered from memory, with the precompressed copy the browser
 * accepts: such a name never changes meaning. Opening, reading and closing a file (and its
 * copy) for each request cost the server 1 to 3 ms of CPU each, on the cores a page's load
 * shares with it. Undefined when there is no such file, or for a byte range (serveStatic's).
 */
function keptFiles(dir: string, prefix: string) {
  const kept = new Map<string, KeptFile>()
  const read = (name: string): KeptFile | undefined => {
    const file = join(dir, name)
    try {
      const stats = statSync(file)
      if (!stats.isFile()) return undefined
      const bodies: KeptFile['bodies'] = ENCODED.flatMap(([encoding, suffix]) =>
        existsSync(file + suffix) ? [{ encoding, body: readFileSync(file + suffix) }] : [],
      )
      bodies.push({ body: readFileSync(file) })
      return {
        type: getMimeType(name) ?? 'application/octet-stream',
        modified: stats.mtime.toUTCString(),
        bodies,
      }
    } catch {
      return undefined // gone meanwhile, or unreadable: as if there were no such file
    }
  }
  return (c: Context): Response | undefined => {
    const name = c.req.path.slice(prefix.length)
    if (!c.req.path.startsWith(prefix) || !NAME.test(name) || c.req.header('range'))
      return undefined
    let file = kept.get(name)
    if (!file) {
      file = read(name)
      if (!file) return undefined
      if (kept.size >= FILES_KEPT) kept.clear()
      kept.set(name, file)
    }
    const accepted = new Set(
      c.req
        .header('accept-encoding')
        ?.split(',')
        .map((e) => e.trim()),
    )
    const { encoding, body } = file.bodies.find((b) => !b.encoding || accepted.has(b.encoding))!
    c.header('Content-Type', file.type)
    c.header('Last-Modified', file.modified)
    c.header('Cache-Control', IMMUTABLE)
    if (file.bodies.length > 1) c.header('Vary', 'Accept-Encoding', { append: true })
    if (encoding) c.header('Content-Encoding', encoding)
    c.header('Content-Length', String(body.length))
    return c.body(body, 200)
  }
}

/** How many product and package pages' markup the server keeps made. */
const ROUTE_SCREENS_KEPT = 500

/** What a refused first screen says, by its status. */
const SCREEN_REFUSALS: Record<number, MessageId> = {
  400: 'errors.bad_request',
  401: 'auth.unauthenticated',
  404: 'errors.not_found',
}

/** A first screen refused with `status`, and a message in `locale`. */
const refusal = (c: Context, locale: Locale, status: 400 | 401 | 404 | 500) =>
  c.json({ message: t(locale, SCREEN_REFUSALS[status] ?? 'errors.server') }, status)

/** Whether the runtime knows `name` as an IANA time zone. */
function isTimeZone(name: string | undefined): name is string {
  if (!name || name.length > 64) return false
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name })
    return true
  } catch {
    return false
  }
}

/**
 * /media/* (images the project ships) and the built storefront from DIST_DIR. With
 * `firstScreen`, the pages of the storefront carry the replies of a first visit's home
 * (docs/api.md, The first screen); /index.html itself, which the service worker keeps, does not.
 */
export function staticRoutes(
  config: Pick<Config, 'distDir' | 'ssrDir' | 'nodeEnv'>,
  mediaDir = MEDIA_DIR,
  firstScreen?: (locale: Locale) => Promise<FirstScreen | undefined>,
  routeScreen?: (route: CatalogueRoute, locale: Locale) => Promise<RouteScreenReplies | undefined>,
  listScreen?: <K extends ListScreen>(
    kind: K,
    locale: Locale,
    authorization: string,
  ) => Promise<ListScreenReplies<K> | number>,
) {
  const app = new Hono<AppEnv>()
  const distDir = resolve(config.distDir)
  const indexFile = join(distDir, 'index.html')

  // The built page, read again only when a new build replaces it.
  let shell: { modified: number; html: string } | undefined
  const shellHtml = () => {
    const modified = statSync(indexFile).mtimeMs
    if (shell?.modified !== modified) shell = { modified, html: readFileSync(indexFile, 'utf8') }
    return shell.html
  }

  // Home's markup, made again only when the replies it shows change.
  const renderer = firstScreenRenderer(resolve(config.ssrDir))
  // Loaded now: the first visitor's page waited about 150 ms for it.
  void renderer()
  // Per language, with a visitor's bars or a signed-in customer's.
  const markups = new Map<
    string,
    { replies: string; rendered: Promise<RenderedFirstScreen | undefined> }
  >()
  const render = async (data: FirstScreen, replies: string, signedIn: boolean) => {
    const variant = `${data.locale} ${signedIn}`
    let markup = markups.get(variant)
    if (markup?.replies !== replies) {
      const rendered = renderer().then((renderers) => renderers?.renderFirstScreen(data, signedIn))
      markup = { replies, rendered: rendered.catch(() => undefined) }
      markups.set(variant, markup)
    }
    return markup.rendered
  }

  /** The storefront's page with the first screen in it, or undefined to serve the file. */
  async function page(c: Context): Promise<Response | undefined> {
    // Home in the language the storefront last chose on this device, with the bars of a
    // customer signed in on it or of a visitor (src/i18n/locale.ts, src/api/token.ts).
    const cookies = getCookie(c)
    const locale = cookies[LANGUAGE_COOKIE] === 'ar' ? 'ar' : 'en'
    const signedIn = cookies[SIGNED_IN_COOKIE] === '1'
    // None of the store's cookies: nothing of the store is stored in this browser yet.
    const firstVisit = [VISITED_COOKIE, LANGUAGE_COOKIE, SIGNED_IN_COOKIE].every(
      (name) => cookies[name] === undefined,
    )
    const data = await firstScreen?.(locale)
    if (!data) return undefined
    c.header('Vary', 'Cookie')
    // Written again every time, so it lasts as long as the browser keeps coming.
    setCookie(c, VISITED_COOKIE, '1', {
      path: '/',
      httpOnly: true,
      sameSite: 'Lax',
      secure: config.nodeEnv === 'production',
      maxAge: VISITED_MAX_AGE_S,
    })
    const { generated_at: _read, ...rest } = data
    const replies = JSON.stringify(rest)
    // Weak: the same page and replies, read at another moment, are the same page.
    const etag = `W/${etagOf(shellHtml() + replies + signedIn + firstVisit)}`
    c.header('Cache-Control', NO_CACHE)
    c.header('ETag', etag)
    if (etagMatches(c.req.header('if-none-match'), etag)) return c.body(null, 304)
    const rendered = await render(data, replies, signedIn)
    return c.html(withFirstScreen(shellHtml(), data, rendered, firstVisit))
  }

  // Product and package pages' markup, kept per page and language while its replies and build
  // are the same.
  const routeMarkup = new Map<
    string,
    { key: string; rendered: Promise<RenderedRouteScreen | undefined> }
  >()
  const formStyles = formStylesOf(distDir)
  /**
   * A signed-in customer's orders or wallet, rendered for the session the request carries, in
   * the language and time zone it names: never kept, by the server or on the way.
   */
  async function listScreenReply(c: Context, path: string, kind: ListScreen) {
    c.header('Cache-Control', 'private, no-store')
    const local = c.req.query('local')
    const locale: Locale = local === 'ar' ? 'ar' : 'en'
    const refuse = (status: 400 | 401 | 404 | 500) => refusal(c, locale, status)
    const authorization = c.req.header('authorization')
    const timeZone = c.req.query('tz')
    if (!listScreen || !existsSync(indexFile)) return refuse(404)
    if (!authorization) return refuse(401)
    if ((local !== 'en' && local !== 'ar') || !isTimeZone(timeZone)) return refuse(400)
    const replies = await listScreen(kind, locale, authorization)
    if (typeof replies === 'number') return refuse(replies === 401 ? 401 : 500)
    const markup = await renderer()
      .then((renderers) => renderers?.renderListScreen(path, kind, replies, timeZone))
      .catch(() => undefined)
    if (markup === undefined) return refuse(404)
    return c.json({ generated_at: Date.now(), markup, ...replies })
  }

  app.get('/first-screen/*', async (c) => {
    const path = c.req.path.slice('/first-screen'.length)
    const route = screenRouteOf(path)
    if (route && isListRoute(route)) return listScreenReply(c, path, route.kind)
    // English without `local`: the page's first script of builds before Arabic screens.
    const local = c.req.query('local') ?? 'en'
    const locale: Locale = local === 'ar' ? 'ar' : 'en'
    const refuse = (status: 400 | 404) => refusal(c, locale, status)
    if (local !== 'en' && local !== 'ar') return refuse(400)
    const replies = route && existsSync(indexFile) ? await routeScreen?.(route, locale) : undefined
    if (!route || !replies) return refuse(404)
    const key = JSON.stringify(replies)
    const etag = `W/${etagOf(shellHtml() + path + key)}`
    const screen = `${locale} ${path}`
    let kept = routeMarkup.get(screen)
    if (kept?.key !== etag) {
      const rendered = renderer().then((renderers) =>
        renderers?.renderRouteScreen(path, route, replies),
      )
      kept = { key: etag, rendered: rendered.catch(() => undefined) }
      routeMarkup.delete(screen)
      routeMarkup.set(screen, kept)
      // The oldest page goes first once many are kept.
      if (routeMarkup.size > ROUTE_SCREENS_KEPT)
        routeMarkup.delete(routeMarkup.keys().next().value!)
    }
    const rendered = await kept.rendered
    if (rendered === undefined) return refuse(404)
    c.header('Cache-Control', NO_CACHE)
    c.header('ETag', etag)
    if (etagMatches(c.req.header('if-none-match'), etag)) return c.body(null, 304)
    const style = rendered.form ? formStyles(shellHtml()) || undefined : undefined
    return c.json({
      generated_at: Date.now(),
      markup: rendered.markup,
      style,
      ...replies,
    } satisfies RouteScreen)
  })

  // Media names carry a content hash (see the media test), so a name never changes meaning.
  // A byte range is serveStatic's.
  const media = keptFiles(mediaDir, '/media/')
  const mediaRanges = serveStatic({
    root: mediaDir,
    rewriteRequestPath: (p) => p.replace(/^\/media/, ''),
  })
  app.get('/media/*', async (c) => {
    const res = media(c) ?? (c.req.header('range') ? await lookup(c, mediaRanges) : undefined)
    if (!res) return c.text('Not Found', 404)
    res.headers.set('Cache-Control', IMMUTABLE)
    // A narrower copy of a picture, a drawing's as a PNG (`?w=`, src/contract/pictures.ts);
    // the picture itself when it cannot be made.
    const width = pictureWidth(c.req.query('w'))
    const type = res.headers.get('content-type') ?? ''
    if (width && res.status === 200 && RESIZABLE.test(type)) {
      const bytes = new Uint8Array(await res.arrayBuffer())
      const copy = await narrowPicture(c.req.path, bytes, width).catch(() => undefined)
      const headers = new Headers(res.headers)
      headers.set('Content-Length', String((copy ?? bytes).length))
      if (copy && type.startsWith('image/svg')) headers.set('Content-Type', 'image/png')
      return conditional(c, new Response(new Uint8Array(copy ?? bytes), { status: 200, headers }))
    }
    return conditional(c, res)
  })

  // Made on first use, once the build exists: serveStatic complains on stderr about a
  // missing root, and the storefront may be built after the server started.
  // precompressed: the build writes .br and .gz copies beside its files (vite.config.ts), sent
  // as they are; a file without them is gzipped as it is sent.
  const assets = keptFiles(join(distDir, 'assets'), '/assets/')
  let dist: { files: MiddlewareHandler; index: MiddlewareHandler } | undefined
  const distHandlers = () =>
    (dist ??= {
      files: serveStatic({ root: distDir, precompressed: true }),
      index: serveStatic({ root: distDir, path: 'index.html', precompressed: true }),
    })

  app.get('*', async (c) => {
    const path = c.req.path
    if (path === '/api' || path.startsWith('/api/')) return c.notFound()
    const asset = assets(c)
    if (asset) return conditional(c, asset)
    if (!existsSync(indexFile)) {
      if (looksLikeFile(path)) return c.text('Not Found', 404)
      c.header('Cache-Control', 'no-store')
      return c.text(
        `The storefront is not built yet: run \`npm run build\` (looked for ${distDir}/index.html).`,
        503,
      )
    }
    if (path === '/') {
      const made = await page(c)
      if (made) return made
    }
    const { files, index } = distHandlers()
    const file = await lookup(c, files)
    if (file) {
      file.headers.set('Cache-Control', cacheControlFor(path))
      return conditional(c, file)
    }
    if (looksLikeFile(path)) return c.text('Not Found', 404)
    // Routing is by hash, but old links and typed paths still deserve the app, not a 404.
    const made = await page(c)
    if (made) return made
    const shellFile = await lookup(c, index)
    if (!shellFile) return c.text('Not Found', 404)
    shellFile.headers.set('Cache-Control', NO_CACHE)
    return conditional(c, shellFile)
  })

  return app
}
