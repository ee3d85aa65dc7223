import { timingSafeEqual } from 'node:crypto'
import { Hono } from 'hono'
import type { Kysely } from 'kysely'
import type { Database } from '../db/schema'
import { metricsText, registry } from '../metrics'

const same = (a: string, b: string) => {
  const x = Buffer.from(a)
  const y = Buffer.from(b)
  return x.length === y.length && timingSafeEqual(x, y)
}

/**
 * GET /metrics: Prometheus text, for whoever sends `Authorization: Bearer <METRICS_TOKEN>`.
 * Without METRICS_TOKEN it does not exist (404), so the public port never shows it.
 */
export function metricsRoutes(db: Kysely<Database>, token: string | undefined) {
  return new Hono().get('/metrics', async (c) => {
    if (!token) return c.text('Not Found', 404)
    const given = /^Bearer (.+)$/.exec(c.req.header('authorization') ?? '')?.[1] ?? ''
    if (!same(given, token)) {
      c.header('WWW-Authenticate', 'Bearer')
      return c.text('Unauthorized', 401)
    }
    c.header('Cache-Control', 'no-store')
    c.header('Content-Type', registry.contentType)
    return c.body(await metricsText(db))
  })
}
