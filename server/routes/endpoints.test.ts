import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { ENDPOINTS, type Endpoint } from '../../src/contract/endpoints'
import { describeEachDatabase } from '../test/context'
import { apiRoutes } from '.'

/*
 * The contract's table of endpoints (src/contract/endpoints.ts) is the API: every route the
 * server has is in it, everything in it is routed, and docs/api.md documents exactly these.
 */

const key = (method: string, path: string) => `${method} ${path}`
const table = Object.values<Endpoint>(ENDPOINTS)
const inTable = new Set(table.map((e) => key(e.method, e.path)))

/** The server's /api routes, with every optional group (the development ones) switched on. */
function routed(): Set<string> {
  const api = apiRoutes({ devOutbox: ['email'], devPush: true, pushConfig: null })
  return new Set(
    api.routes
      .filter((route) => route.method !== 'ALL')
      // `/v2/` is `/v2` as typed with its slash.
      .map((route) => key(route.method, route.path.replace(/(.)\/$/, '$1'))),
  )
}

/** The calls docs/api.md has a heading for: `GET /api/orders/{id}` is `GET /orders/:id`. */
export function documented(markdown: string): Set<string> {
  const found = new Set<string>()
  for (const line of markdown.split('\n')) {
    if (!line.startsWith('#')) continue
    for (const [, method, path] of line.matchAll(/`(GET|POST|PUT|PATCH|DELETE) \/api(\/[^`?\s]*)/g))
      found.add(key(method!, path!.replace(/\{(\w+)\}/g, ':$1')))
  }
  return found
}

const sorted = (set: Set<string>) => [...set].sort()
const missing = (from: Set<string>, to: Set<string>) => sorted(from).filter((k) => !to.has(k))

describe('the table of endpoints', () => {
  it('has every route the server has, and the server routes every entry', () => {
    const server = routed()
    expect(missing(server, inTable), 'routed but not in the contract').toEqual([])
    expect(missing(inTable, server), 'in the contract but not routed').toEqual([])
  })

  it('is what docs/api.md documents, no more and no less', () => {
    const docs = documented(readFileSync(new URL('../../docs/api.md', import.meta.url), 'utf8'))
    expect(missing(inTable, docs), 'not documented').toEqual([])
    expect(missing(docs, inTable), 'documented but not in the contract').toEqual([])
  })

  it('reads headings the way the docs write them', () => {
    const docs = documented(
      [
        '### `GET /api/charging-processes/{id}` and `GET /api/charging-processes/{id}/receipt`',
        '### `POST /api/signup?validate=1`',
        'A line that says `GET /api/elsewhere` is no heading.',
      ].join('\n'),
    )
    expect(sorted(docs)).toEqual([
      'GET /charging-processes/:id',
      'GET /charging-processes/:id/receipt',
      'POST /signup',
    ])
  })

  it('names each entry once by method, path and variant', () => {
    const variants = table.map((e) => `${key(e.method, e.path)} ${JSON.stringify(e.variant ?? {})}`)
    expect(new Set(variants).size).toBe(variants.length)
  })
})

describeEachDatabase(
  'who may call each endpoint',
  (ctx) => {
    const call = (e: Endpoint) =>
      ctx.app.request(`/api${e.path.replaceAll(/:\w+/g, '1')}`, {
        method: e.method,
        headers: { Origin: 'http://localhost' },
      })

    it('answers 401 without a sign-in or key where the table asks for one, and only there', async () => {
      for (const e of table.filter((e) => e.auth !== 'dev')) {
        const res = await call(e)
        const needsUser = ['user', 'user-or-token', 'operator', 'owner'].includes(e.auth)
        expect(res.status === 401, `${e.method} ${e.path}: ${res.status}`).toBe(needsUser)
      }
    })
  },
  { only: ['sqlite'] },
)
