import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { getRequestListener } from '@hono/node-server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApp, type App } from '../app'
import { sharedReplyLane, withLane } from '../http/fast-lane'
import { ReplyCache } from '../http/reply-cache'
import { createLogger } from '../log'
import { contentVersionReader, FreshRead } from '../services/content-version'
import { getProductDetail } from '../services/catalogue'
import { runOperator } from '../test/cli'
import { describeEachDatabase, testPasswords, type TestContext } from '../test/context'
import { customer } from '../test/orders'

const ROOT = join(import.meta.dirname, '..', '..')
const PUBLIC = 'public, max-age=300'

/** The operator CLI as an operator runs it: its own process, its own database connection. */
function operatorProcess(ctx: TestContext, ...argv: string[]) {
  const database = ctx.config.databaseUrl
    ? { DATABASE_URL: ctx.config.databaseUrl }
    : { SQLITE_PATH: ctx.config.sqlitePath, DATABASE_URL: '' }
  return new Promise<{ code: number | null; out: string }>((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/cli.ts', ...argv], {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH ?? '',
        NODE_ENV: 'test',
        OPERATOR: 'test-operator',
        ...database,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let out = ''
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()))
    child.once('error', reject)
    child.once('exit', (code) => resolve({ code, out }))
  })
}

/** Renames product 1 in a catalogue document (as catalogue:export writes it). */
function renamed(text: string, nameEn: string, nameAr: string): string {
  const doc = JSON.parse(text) as { products: { id: number; name_en: string; name_ar: string }[] }
  const product = doc.products.find((p) => p.id === 1)!
  product.name_en = nameEn
  product.name_ar = nameAr
  return JSON.stringify(doc, null, 2)
}

const nameOf = async (res: Response) => ((await res.json()) as { data: { name: string } }).data.name

describeEachDatabase('the public replies kept in memory', (ctx) => {
  let replies: ReplyCache
  let app: App
  let dir: string
  let original: string
  const get = (path: string, headers: Record<string, string> = {}) => app.request(path, { headers })

  beforeAll(async () => {
    replies = new ReplyCache(contentVersionReader(ctx.db))
    app = createApp({
      db: ctx.db,
      config: ctx.config,
      clock: ctx.clock,
      passwords: testPasswords,
      replies,
    })
    dir = mkdtempSync(join(tmpdir(), 'catalogue-cache-'))
    const out = await runOperator(ctx, 'catalogue:export', '--out', join(dir, 'original.json'))
    expect(out.code).toBe(0)
    original = readFileSync(join(dir, 'original.json'), 'utf8')
  })
  afterAll(async () => {
    // Whatever a test left, the catalogue is the demo one again for the next file's suites.
    await runOperator(ctx, 'catalogue:import', join(dir, 'original.json'))
    rmSync(dir, { recursive: true, force: true })
  })

  describe('ETag and 304', () => {
    it('answers 304 with the same headers to a matching If-None-Match, and 200 otherwise', async () => {
      const first = await get('/api/products/1?local=en')
      expect(first.status).toBe(200)
      const etag = first.headers.get('etag')!
      expect(etag).toMatch(/^"[\w-]{27}"$/) // strong: no W/
      expect(first.headers.get('cache-control')).toBe(PUBLIC)
      const body = await first.text()

      for (const ifNoneMatch of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
        const again = await get('/api/products/1?local=en', { 'if-none-match': ifNoneMatch })
        expect(again.status, ifNoneMatch).toBe(304)
        expect(again.headers.get('etag')).toBe(etag)
        expect(again.headers.get('cache-control')).toBe(PUBLIC)
        expect(await again.text()).toBe('')
      }
      const changed = await get('/api/products/1?local=en', { 'if-none-match': '"other"' })
      expect(changed.status).toBe(200)
      expect(changed.headers.get('etag')).toBe(etag)
      expect(await changed.text()).toBe(body)
    })

    it('gives the same reply and tag to the same query however it is spelled', async () => {
      const a = await get('/api/products?per_page=5&page=1&local=ar')
      const b = await get('/api/products?local=AR&page=1&per_page=5')
      expect(b.headers.get('etag')).toBe(a.headers.get('etag'))
      expect(await b.text()).toBe(await a.text())
    })

    it('compresses for clients that accept gzip and keeps the tag', async () => {
      const plain = await get('/api/products?per_page=300&local=en')
      const gzipped = await get('/api/products?per_page=300&local=en', {
        'accept-encoding': 'gzip',
      })
      expect(gzipped.headers.get('content-encoding')).toBe('gzip')
      expect(gzipped.headers.get('etag')).toBe(plain.headers.get('etag'))
      expect(gzipped.headers.get('vary')).toBe('Accept-Encoding')
    })

    it('keeps and marks shareable only successful replies', async () => {
      const missing = await get('/api/products/99999?local=en', { 'if-none-match': '*' })
      expect(missing.status).toBe(404)
      expect(missing.headers.get('etag')).toBeNull()
      expect(missing.headers.get('cache-control')).toBe('no-store')
    })
  })

  describe('both languages', () => {
    it('keeps each language apart, site content included', async () => {
      for (let round = 0; round < 2; round++) {
        const en = await get('/api/products/1?local=en')
        const ar = await get('/api/products/1?local=ar')
        const fallback = await get('/api/products/1?local=fr')
        expect(await nameOf(en)).toBe('PUBG Mobile UC')
        expect(await nameOf(ar)).toMatch(/[\u0600-\u06ff]/)
        expect(await nameOf(fallback)).toBe('PUBG Mobile UC')
        expect(en.headers.get('etag')).not.toBe(ar.headers.get('etag'))
        expect(fallback.headers.get('etag')).toBe(en.headers.get('etag'))
      }
      const aboutEn = await (await get('/api/about-us/info?local=en')).text()
      const aboutAr = await (await get('/api/about-us/info?local=ar')).text()
      expect(aboutAr).not.toBe(aboutEn)
      expect(await (await get('/api/about-us/info?local=en')).text()).toBe(aboutEn)
    })
  })

  describe('company and customer prices', () => {
    it('gives every caller the catalogue figures, never one account type its own prices', async () => {
      // Prices do not depend on who asks: the reply carries the catalogue's figures and each
      // account type's price is worked out from them. So the cache key has no account in it,
      // and whoever fills the cache, everyone gets the same bytes.
      const company = await customer(ctx, { type: 'COMPANY' })
      const retail = await customer(ctx, { type: 'CUSTOMER' })
      const auth = (token: string) => ({ authorization: `Bearer ${token}` })
      const expected = { data: await getProductDetail(ctx.db, 'en', 1) }
      const path = '/api/products/1?local=en'
      const bodies = [
        await (await get(path, auth(company.token))).text(),
        await (await get(path, auth(retail.token))).text(),
        await (await get(path)).text(),
        await (await get(path, auth(company.token))).text(),
      ]
      for (const body of bodies) expect(JSON.parse(body)).toEqual(expected)
      expect(new Set(bodies).size).toBe(1)
      expect(expected.data).toMatchObject({
        company_price: expect.any(Number),
        company_percentage: expect.any(Number),
        product_percentage: expect.any(Number),
      })
    })
  })

  describe('writes are seen at once', () => {
    it('after a write in this process', async () => {
      const before = await get('/api/products/1?local=en')
      const etag = before.headers.get('etag')
      expect(await nameOf(before)).toBe('PUBG Mobile UC')
      expect(replies.size).toBeGreaterThan(0)

      await ctx.db
        .updateTable('products')
        .set({ name_en: 'PUBG Renamed' })
        .where('id', '=', 1)
        .execute()
      const after = await get('/api/products/1?local=en', { 'if-none-match': etag! })
      expect(after.status).toBe(200)
      expect(after.headers.get('etag')).not.toBe(etag)
      expect(await nameOf(after)).toBe('PUBG Renamed')

      await ctx.db
        .updateTable('products')
        .set({ name_en: 'PUBG Mobile UC' })
        .where('id', '=', 1)
        .execute()
      expect(await nameOf(await get('/api/products/1?local=en'))).toBe('PUBG Mobile UC')
      expect((await get('/api/products/1?local=en', { 'if-none-match': etag! })).status).toBe(304)
    })

    it('after catalogue:import in this process', async () => {
      expect(await nameOf(await get('/api/products/1?local=ar'))).not.toBe('ببجي جديد')
      writeFileSync(join(dir, 'in.json'), renamed(original, 'PUBG In', 'ببجي جديد'))
      expect((await runOperator(ctx, 'catalogue:import', join(dir, 'in.json'))).code).toBe(0)
      expect(await nameOf(await get('/api/products/1?local=ar'))).toBe('ببجي جديد')
      expect(await nameOf(await get('/api/products/1?local=en'))).toBe('PUBG In')
      expect((await runOperator(ctx, 'catalogue:import', join(dir, 'original.json'))).code).toBe(0)
      expect(await nameOf(await get('/api/products/1?local=en'))).toBe('PUBG Mobile UC')
    })

    it('after catalogue:import from the operator CLI, another process', async () => {
      const list = '/api/products?per_page=300&local=en'
      const before = await get(list)
      expect(before.status).toBe(200)
      expect(await nameOf(await get('/api/products/1?local=en'))).toBe('PUBG Mobile UC')

      writeFileSync(join(dir, 'cli.json'), renamed(original, 'PUBG From The CLI', 'ببجي سطر'))
      const cli = await operatorProcess(ctx, 'catalogue:import', join(dir, 'cli.json'))
      expect(cli.out).toContain('Imported the catalogue')
      expect(cli.code).toBe(0)

      // No request in this process wrote anything: only the database's version says so.
      expect(await nameOf(await get('/api/products/1?local=en'))).toBe('PUBG From The CLI')
      expect(await nameOf(await get('/api/products/1?local=ar'))).toBe('ببجي سطر')
      const after = await get(list, { 'if-none-match': before.headers.get('etag')! })
      expect(after.status).toBe(200)
      expect(await after.text()).toContain('PUBG From The CLI')
    }, 60_000)
  })

  describe('the fast lane in front of the app', () => {
    let server: Server
    let base: string
    beforeAll(async () => {
      const lane = sharedReplyLane(replies, ctx.config, createLogger('silent'))
      server = createServer(withLane(lane, getRequestListener(app.fetch)))
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    })
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

    const headersOf = (res: Response) =>
      Object.fromEntries(
        [...res.headers].filter(([name]) => !['date', 'x-request-id'].includes(name)),
      )

    it('answers a cached read with what the app answers', async () => {
      for (const [path, headers] of [
        ['/api/products/2?local=ar', {}],
        ['/api/products?per_page=300&local=en', { 'accept-encoding': 'gzip, br' }],
        ['/api/slider/images', {}],
      ] as const) {
        const fromApp = await fetch(base + path, { headers })
        const fromLane = await fetch(base + path, { headers })
        expect(fromLane.status).toBe(200)
        expect(headersOf(fromLane)).toEqual(headersOf(fromApp))
        expect(await fromLane.text()).toBe(await fromApp.text())
        expect(fromLane.headers.get('x-request-id')).toMatch(/^[\w-]+$/)
      }
      const asked = await fetch(`${base}/api/products/2?local=ar`, {
        headers: { 'x-request-id': 'caller-id-1' },
      })
      expect(asked.headers.get('x-request-id')).toBe('caller-id-1')
    })

    it('answers 304 and HEAD, and sees a write at once', async () => {
      const path = `${base}/api/products/3?local=en`
      const first = await fetch(path)
      const etag = first.headers.get('etag')!
      expect((await fetch(path, { headers: { 'if-none-match': etag } })).status).toBe(304)
      const head = await fetch(path, { method: 'HEAD' })
      expect(head.status).toBe(200)
      expect(head.headers.get('etag')).toBe(etag)

      await ctx.db
        .updateTable('products')
        .set({ name_en: 'Lane Renamed' })
        .where('id', '=', 3)
        .execute()
      try {
        const after = await fetch(path, { headers: { 'if-none-match': etag } })
        expect(after.status).toBe(200)
        expect(await nameOf(after)).toBe('Lane Renamed')
      } finally {
        const name = JSON.parse(original).products.find((p: { id: number }) => p.id === 3).name_en
        await ctx.db.updateTable('products').set({ name_en: name }).where('id', '=', 3).execute()
      }
    })
  })
})

describe('FreshRead', () => {
  it('never answers a caller with a read that began before it asked', async () => {
    let reads = 0
    const releases: (() => void)[] = []
    const fresh = new FreshRead(
      () =>
        new Promise<number>((resolve) => {
          const n = ++reads
          releases.push(() => resolve(n))
        }),
    )
    const tick = () => new Promise((resolve) => setImmediate(resolve))
    // Callers in the same turn share one read.
    const a = fresh.get()
    const b = fresh.get()
    await tick()
    expect(reads).toBe(1)
    // A caller arriving while that read runs waits for the next one.
    const c = fresh.get()
    const d = fresh.get()
    releases[0]!()
    expect(await a).toBe(1)
    expect(await b).toBe(1)
    await tick()
    await tick()
    expect(reads).toBe(2)
    releases[1]!()
    expect(await c).toBe(2)
    expect(await d).toBe(2)
  })
})
