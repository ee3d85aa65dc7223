import { Hono } from 'hono'
import { compress } from 'hono/compress'
import { cors } from 'hono/cors'
import { HTTPException } from 'hono/http-exception'
import { requestId } from 'hono/request-id'
import type { Kysely } from 'kysely'
import { outboxChannels, type Delivery } from './adapters/delivery'
import { createPushOutbox, noPush, type PushSender } from './adapters/push'
import { createFirebasePush } from './adapters/push-firebase'
import { createDelivery } from './adapters/senders'
import type { Provider } from './adapters/provider'
import { createProvider } from './adapters/providers'
import { systemClock, type Clock } from './clock'
import type { Config } from './config'
import type { Database } from './db/schema'
import { isDatabaseUnavailable } from './db'
import type { AppEnv } from './http/env'
import { ApiError, RetryLaterError } from './core/errors'
import type { Locale } from '../src/contract/common'
import { localeFromUrl } from './http/locale'
import { ReplyCache } from './http/reply-cache'
import { securityHeaders } from './http/security'
import { firstScreenData, listScreenData, routeScreenData } from './http/first-screen'
import { healthRoutes } from './http/health'
import { metricsRoutes } from './http/metrics'
import { routeLabel } from './http/route-label'
import { metrics } from './metrics'
import { staticRoutes } from './http/static'
import { ValidationError } from './core/errors'
import { t, type MessageId } from './i18n'
import { durableReads } from './db/durability'
import { createLogger, errorFields, requestScope, type Logger } from './log'
import { apiRoutes } from './routes'
import { catalogueMediaRoutes } from './routes/catalogue'
import { sliderMediaRoutes } from './routes/slider'
import { CatalogueRows } from './services/catalogue-rows'
import { contentVersionReader } from './services/content-version'
import { PasswordHasher, scryptWithCost } from './services/passwords'

export interface AppOptions {
  db: Kysely<Database>
  config: Config
  logger?: Logger
  /** Where /media/* is served from; tests may point it elsewhere. */
  mediaDir?: string
  /** The time services go by; tests pass one they can move. */
  clock?: Clock
  /** Password hashing; tests pass cheaper scrypt parameters. */
  passwords?: PasswordHasher
  /** Code senders; by default from the configuration (real ones, else the local outbox). */
  delivery?: Delivery
  /** Player search and fulfilment; by default from the configuration (HTTP, else local). */
  provider?: Provider
  /** Push sender; by default FCM when configured, else the local outbox in development. */
  push?: PushSender
  /** The public replies kept in memory; main.ts shares it with the fast lane. */
  replies?: ReplyCache
  /** True once the process is shutting down: /readyz then answers 503. */
  isStopping?: () => boolean
}

/** FCM with a service account; the local outbox where the development outbox is on; else none. */
export function pushSenderFor(config: Config, db: Kysely<Database>, logger: Logger): PushSender {
  if (config.push.serviceAccount) return createFirebasePush(config.push.serviceAccount, logger)
  if (config.devOutbox && config.nodeEnv !== 'production') return createPushOutbox(db)
  return noPush
}

/** What a 503 for an unavailable database asks the client to wait. */
const BUSY_RETRY_SECONDS = 2

const isApiPath = (path: string) => path === '/api' || path.startsWith('/api/')
const isProbe = (path: string) => path === '/healthz' || path === '/readyz' || path === '/metrics'

const STATUS_MESSAGES: Partial<Record<number, MessageId>> = {
  400: 'errors.bad_request',
  404: 'errors.not_found',
  413: 'errors.payload_too_large',
}

export function createApp({
  db,
  config,
  logger = createLogger(config.logLevel),
  mediaDir,
  clock = systemClock,
  passwords = new PasswordHasher(scryptWithCost(config.passwordHashCost)),
  delivery = createDelivery(config, db, logger),
  provider = createProvider(config, logger),
  push = pushSenderFor(config, db, logger),
  replies = new ReplyCache(contentVersionReader(db)),
  isStopping = () => false,
}: AppOptions) {
  // The unknown-user hash is ready before the first sign-in (see PasswordHasher.prepare).
  passwords.prepare().catch((err: unknown) => logger.error('password hasher', errorFields(err)))
  const app = new Hono<AppEnv>()
  // Shares the reply cache's read of the content version.
  const catalogueRows = new CatalogueRows(() => replies.version())
  // The outbox reader shows codes: only when asked for (DEV_OUTBOX=1), never in production, and
  // only for the channels whose codes go there (not one a real sender delivers to its owner).
  const devOutbox =
    config.devOutbox && config.nodeEnv !== 'production' ? outboxChannels(delivery) : []

  app.use(requestId())
  app.use(async (c, next) => {
    const started = performance.now()
    c.set('db', db)
    c.set('config', config)
    c.set('logger', logger)
    c.set('locale', localeFromUrl(c.req.url))
    c.set('clock', clock)
    c.set('passwords', passwords)
    c.set('delivery', delivery)
    c.set('provider', provider)
    c.set('replies', replies)
    c.set('catalogueRows', catalogueRows)
    await requestScope.run({ requestId: c.get('requestId') }, () => durableReads(next))
    // The replies a page carries, asked of this app in process, are not requests of their own;
    // a load balancer's health probes come every few seconds.
    const log =
      (c.env as { inProcess?: boolean } | undefined)?.inProcess || isProbe(c.req.path)
        ? logger.debug
        : logger.info
    const ms = performance.now() - started
    log('request', {
      method: c.req.method,
      path: c.req.path,
      status: c.res.status,
      ms: Math.round(ms * 10) / 10,
      requestId: c.get('requestId'),
    })
    const route = routeLabel(c)
    metrics.http.observe({ method: c.req.method, route, status: c.res.status }, ms / 1000)
    if (c.res.status === 429) metrics.rateLimited.inc({ route })
  })
  app.use(securityHeaders(config))
  // GET replies only: they are the large ones (the catalogue, lists, static files). A POST
  // answers with one small object (c.json sets no Content-Length, so the size threshold
  // cannot skip it), and gzip through a stream costs more CPU there than the bytes it saves.
  const gzip = compress()
  app.use((c, next) => (c.req.method === 'GET' ? gzip(c, next) : next()))

  if (config.corsOrigins.length > 0) {
    app.use(
      '/api/*',
      cors({
        origin: config.corsOrigins,
        allowHeaders: ['Authorization', 'Idempotency-Key', 'Content-Type'],
        allowMethods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
        exposeHeaders: ['X-Request-Id'],
        maxAge: 600,
      }),
    )
  }

  app.route('/', healthRoutes(db, isStopping))
  app.route('/', metricsRoutes(db, config.metricsToken))

  // PostgreSQL cannot compare text with a NUL character: a URL that carries one (a search, a
  // filter) is refused before any route reads it; form fields are checked by readFields.
  app.use('/api/*', async (c, next) => {
    if (c.req.url.includes('%00')) throw new ApiError(422, 'errors.nul_character')
    await next()
  })
  app.route(
    '/api',
    apiRoutes({
      devOutbox,
      devPush: push.kind === 'outbox',
      // Devices are asked for a token only where a push can reach them.
      pushConfig: push.kind === 'none' ? null : (config.push.web ?? null),
    }),
  )
  app.route('/media/catalogue', catalogueMediaRoutes) // drawn pictures; before /media/*
  app.route('/media/slider', sliderMediaRoutes) // the console's uploads; before /media/*
  // The storefront's pages carry home's first replies, asked of this app in process.
  const request = (path: string, init?: RequestInit) => app.request(path, init, { inProcess: true })
  const firstScreen = (locale: Locale) => firstScreenData(request, locale)
  app.route(
    '/',
    staticRoutes(
      config,
      mediaDir,
      firstScreen,
      (route, locale) => routeScreenData(route, locale, request),
      (kind, locale, authorization) => listScreenData(kind, locale, authorization, request),
    ),
  )

  app.notFound((c) =>
    isApiPath(c.req.path)
      ? c.json({ message: t(localeFromUrl(c.req.url), 'errors.not_found') }, 404)
      : c.text('Not Found', 404),
  )

  app.onError((err, c) => {
    const locale = localeFromUrl(c.req.url)
    if (err instanceof ValidationError) return c.json(err.toReply(locale), 422)
    if (err instanceof ApiError) {
      if (err instanceof RetryLaterError) {
        c.header('Retry-After', String(Math.max(1, Math.ceil(err.retryAfterSeconds))))
      }
      return c.json({ message: t(locale, err.messageId, err.values) }, err.status)
    }
    if (isDatabaseUnavailable(err)) {
      // Another process holds SQLite's write lock (a backup, the operator CLI), or PostgreSQL's
      // connection was cut: the request can simply be sent again in a moment.
      logger.warn('database unavailable', {
        method: c.req.method,
        path: c.req.path,
        ...errorFields(err),
      })
      c.header('Retry-After', String(BUSY_RETRY_SECONDS))
      return isApiPath(c.req.path)
        ? c.json({ message: t(locale, 'errors.busy') }, 503)
        : c.text('Service Unavailable', 503)
    }
    if (err instanceof HTTPException && err.status < 500) {
      const id = STATUS_MESSAGES[err.status] ?? 'errors.bad_request'
      return c.json({ message: t(locale, id) }, err.status)
    }
    logger.error('unhandled error', {
      method: c.req.method,
      path: c.req.path,
      requestId: c.var.requestId,
      ...errorFields(err),
    })
    // The cause stays in the log; the caller learns only that it was not their fault.
    return isApiPath(c.req.path)
      ? c.json({ message: t(locale, 'errors.server') }, 500)
      : c.text('Internal Server Error', 500)
  })

  return app
}

export type App = ReturnType<typeof createApp>
