import { createHash } from 'node:crypto'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { afterAll, beforeAll, expect, it } from 'vitest'
import * as v from 'valibot'
import { FirstScreenSchema, type FirstScreen } from '../../src/contract/site'
import { demoSeed } from '../db/seed'
import { describeEachDatabase, type TestContext } from '../test/context'
import { withFirstScreen } from './first-screen'
import { MEDIA_DIR } from './static'

const IMMUTABLE = 'public, max-age=31536000, immutable'

// Serving files does not touch the database, so one database kind is enough.
describeEachDatabase(
  'static files',
  (ctx: TestContext) => {
    let dist: string
    const app = () => ctx.appWith({ distDir: dist })

    beforeAll(() => {
      dist = mkdtempSync(join(tmpdir(), 'store-dist-'))
      mkdirSync(join(dist, 'assets'))
      writeFileSync(join(dist, 'index.html'), '<!doctype html><title>Store</title>')
      writeFileSync(join(dist, 'assets', 'index-abc123.js'), 'console.log("app");\n'.repeat(200))
      writeFileSync(join(dist, 'sw.js'), 'self.addEventListener("install", () => {})')
      writeFileSync(join(dist, 'registerSW.js'), '// register')
      writeFileSync(join(dist, 'manifest.webmanifest'), '{"name":"Store"}')
      writeFileSync(join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>')
      const css = 'body{color:red}\n'.repeat(100)
      writeFileSync(join(dist, 'assets', 'style-def456.css'), css)
      writeFileSync(join(dist, 'assets', 'style-def456.css.gz'), gzipSync(css))
    })
    afterAll(() => rmSync(dist, { recursive: true, force: true }))

    it('serves hashed assets as immutable', async () => {
      const res = await app().request('/assets/index-abc123.js')
      expect(res.status).toBe(200)
      expect(res.headers.get('content-type')).toMatch(/javascript/)
      expect(res.headers.get('cache-control')).toBe(IMMUTABLE)
      expect(await res.text()).toContain('console.log("app")')
    })

    it('makes the browser revalidate the shell, service worker and manifest', async () => {
      for (const path of [
        '/',
        '/index.html',
        '/sw.js',
        '/registerSW.js',
        '/manifest.webmanifest',
      ]) {
        const res = await app().request(path)
        expect(res.status, path).toBe(200)
        expect(res.headers.get('cache-control'), path).toBe('no-cache')
      }
      expect(await (await app().request('/')).text()).toContain('<title>Store</title>')
    })

    it('gives other files a short cache', async () => {
      const res = await app().request('/favicon.svg')
      expect(res.status).toBe(200)
      expect(res.headers.get('cache-control')).toBe('public, max-age=3600')
    })

    it('serves index.html for storefront routes but 404 for missing files', async () => {
      for (const path of ['/products', '/Orders/12', '/sign-in/code']) {
        const res = await app().request(path)
        expect(res.status, path).toBe(200)
        expect(res.headers.get('content-type'), path).toMatch(/^text\/html/)
        expect(res.headers.get('cache-control'), path).toBe('no-cache')
      }
      for (const path of ['/assets/missing-123.js', '/nothing.png']) {
        expect((await app().request(path)).status, path).toBe(404)
      }
      expect((await app().request('/products', { method: 'POST' })).status).toBe(404)
    })

    it('answers 304 when the browser copy is current', async () => {
      const first = await app().request('/index.html')
      const lastModified = first.headers.get('last-modified')
      expect(lastModified).toBeTruthy()
      const again = await app().request('/index.html', {
        headers: { 'if-modified-since': lastModified! },
      })
      expect(again.status).toBe(304)
      expect(again.headers.get('cache-control')).toBe('no-cache')
    })

    it('compresses text files, preferring a precompressed copy', async () => {
      const js = await app().request('/assets/index-abc123.js', {
        headers: { 'accept-encoding': 'gzip' },
      })
      expect(js.headers.get('content-encoding')).toBe('gzip')
      const css = await app().request('/assets/style-def456.css', {
        headers: { 'accept-encoding': 'br, gzip' },
      })
      expect(css.headers.get('content-encoding')).toBe('gzip')
      expect(css.headers.get('cache-control')).toBe(IMMUTABLE)
      const text = await new Response(css.body!.pipeThrough(new DecompressionStream('gzip'))).text()
      expect(text).toContain('body{color:red}')
    })

    it('answers 503 with a hint when the storefront is not built', async () => {
      const missing = ctx.appWith({ distDir: join(dist, 'not-there') })
      const res = await missing.request('/')
      expect(res.status).toBe(503)
      expect(res.headers.get('content-type')).toMatch(/^text\/plain/)
      expect(await res.text()).toContain('npm run build')
      expect((await missing.request('/api/website/info')).status).toBe(200)
    })

    it("puts home's first replies into the storefront's pages, not into /index.html", async () => {
      const built = mkdtempSync(join(tmpdir(), 'store-dist-'))
      const html =
        '<!doctype html><html><head><title>Store</title>' +
        '<link rel="preload" as="fetch" crossorigin="" href="/api/website/info">' +
        '<link rel="preload" as="fetch" crossorigin="" href="/api/slider/images">' +
        '</head><body><div id="root"></div></body></html>'
      writeFileSync(join(built, 'index.html'), html)
      try {
        const store = ctx.appWith({ distDir: built })
        const api = async (path: string) => (await store.request(path)).json()
        for (const path of ['/', '/Orders/12']) {
          const res = await store.request(path)
          expect(res.status, path).toBe(200)
          expect(res.headers.get('cache-control'), path).toBe('no-cache')
          const page = await res.text()
          const json = /<script id="first-screen" type="application\/json">(.*?)<\/script>/.exec(
            page,
          )?.[1]
          const data = JSON.parse(json!) as FirstScreen
          expect(v.is(FirstScreenSchema, data)).toBe(true)
          expect(data.locale).toBe('en')
          expect(data.website_info).toEqual(await api('/api/website/info'))
          expect(data.slider).toEqual(await api('/api/slider/images'))
          expect(data.products).toEqual(await api('/api/products?page=1&per_page=15&local=en'))
          expect(data.products.data).toHaveLength(15)
          // The replies it carries are not asked for again; the first slide is, at once.
          expect(page).not.toContain('as="fetch"')
          expect(page).toContain(
            `<link rel="preload" as="image" href="${data.slider.data[0]!.image}" fetchpriority="high">`,
          )
          // Unchanged page, unchanged validator: the browser's copy is confirmed.
          const again = await store.request(path, {
            headers: { 'if-none-match': res.headers.get('etag')! },
          })
          expect(again.status, path).toBe(304)
        }
        // The service worker keeps /index.html for every visit: it stays the file as built.
        expect(await (await store.request('/index.html')).text()).toBe(html)
      } finally {
        rmSync(built, { recursive: true, force: true })
      }
    })

    it('serves media with immutable caching and 404 for unknown names', async () => {
      const res = await ctx.app.request(demoSeed.websiteInfo.logo_url)
      expect(res.status).toBe(200)
      expect(res.headers.get('cache-control')).toBe(IMMUTABLE)
      expect(res.headers.get('content-type')).toMatch(/^image\/svg\+xml/)
      expect((await ctx.app.request('/media/nope.12345678.svg')).status).toBe(404)
      expect((await ctx.app.request('/media/../app.ts')).status).toBe(404)
    })
  },
  { only: ['sqlite'] },
)

it('keeps any text of the data inside its script element', () => {
  const name = '</script><script>alert(1)</script>'
  const data = {
    generated_at: 1,
    locale: 'en',
    website_info: { website_info: '{}' },
    slider: { data: [{ id: 1, image: '/media/a".svg' }] },
    products: { data: [{ id: 1, name }], total: 1, per_page: 15 },
  } as unknown as FirstScreen
  const page = withFirstScreen('<html><head></head><body></body></html>', data)
  expect(page).not.toContain('</script><script>alert')
  const json = /<script id="first-screen" type="application\/json">(.*?)<\/script>/.exec(page)
  expect(JSON.parse(json![1]!)).toEqual(data)
  expect(page).toContain('href="/media/a&quot;.svg"')
})

it('names every media file after its content, so immutable caching is safe', () => {
  const files = readdirSync(MEDIA_DIR)
  expect(files.length).toBeGreaterThan(0)
  for (const file of files) {
    const match = /^[a-z0-9-]+\.([0-9a-f]{8})\.svg$/.exec(file)
    expect(match, file).not.toBeNull()
    const hash = createHash('sha256')
      .update(readFileSync(join(MEDIA_DIR, file)))
      .digest('hex')
    expect(hash.slice(0, 8), `${file}: rename it to match its content`).toBe(match![1])
  }
  const seeded = [
    ...Object.values(demoSeed.websiteInfo).filter(
      (x): x is string => typeof x === 'string' && x.startsWith('/media/'),
    ),
    ...demoSeed.sliderImages,
    ...demoSeed.aboutImages,
  ]
  for (const path of seeded) expect(files).toContain(path.replace('/media/', ''))
})
