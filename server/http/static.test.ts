import { createHash } from 'node:crypto'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { brotliCompressSync, brotliDecompressSync, gzipSync } from 'node:zlib'
import { afterAll, beforeAll, expect, it, vi } from 'vitest'
import sharp from 'sharp'
import * as v from 'valibot'
import { FirstScreenSchema, RouteScreenSchema, type FirstScreen } from '../../src/contract/site'
import { demoSeed } from '../demo/seed'
import { describeEachDatabase, type TestContext } from '../test/context'
import { customer, order } from '../test/orders'
import { ListScreenSchemas } from '../../src/contract/list-screens'
import { ICON_WIDTH } from '../../src/contract/pictures'
import { withFirstScreen } from './first-screen'
import { MEDIA_DIR } from './static'

const IMMUTABLE = 'public, max-age=31536000, immutable'

/**
 * A storefront build (its index.html) with a server build (its entry-server.js) in a
 * temporary directory, removed after `use`.
 */
async function withBuild(
  indexHtml: string,
  entryServer: string,
  use: (built: string, ssrDir: string) => Promise<void>,
) {
  const built = mkdtempSync(join(tmpdir(), 'store-dist-'))
  const ssrDir = join(built, 'server')
  mkdirSync(ssrDir)
  writeFileSync(join(built, 'index.html'), indexHtml)
  writeFileSync(join(ssrDir, 'entry-server.js'), entryServer)
  try {
    await use(built, ssrDir)
  } finally {
    rmSync(built, { recursive: true, force: true })
  }
}

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

    it('answers a built file from memory once it was read: each copy, the same bytes', async () => {
      const js = 'export const kept = 1;\n'.repeat(100)
      const file = join(dist, 'assets', 'kept-aaa111.js')
      writeFileSync(file, js)
      writeFileSync(`${file}.br`, brotliCompressSync(js))
      const server = app()
      const get = (encoding: string) =>
        server.request('/assets/kept-aaa111.js', { headers: { 'accept-encoding': encoding } })
      const first = await get('gzip, br')
      expect(first.headers.get('content-encoding')).toBe('br')
      const firstBytes = Buffer.from(await first.arrayBuffer())
      expect(brotliDecompressSync(firstBytes).toString()).toBe(js)
      // Gone from the disk (a newer build replaced the folder): still the same answers.
      rmSync(file)
      rmSync(`${file}.br`)
      const again = await get('br')
      expect(again.status).toBe(200)
      expect(again.headers.get('cache-control')).toBe(IMMUTABLE)
      expect(again.headers.get('content-type')).toMatch(/^text\/javascript/)
      expect(again.headers.get('vary')).toMatch(/accept-encoding/i)
      expect(Buffer.from(await again.arrayBuffer())).toEqual(firstBytes)
      const plain = await get('identity')
      expect(plain.headers.get('content-encoding')).toBeNull()
      expect(await plain.text()).toBe(js)
      expect((await server.request('/assets/never-built.js')).status).toBe(404)
      mkdirSync(join(dist, 'assets', 'folder-bbb222.js'))
      expect((await server.request('/assets/folder-bbb222.js')).status).toBe(404)
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
          expect(data.groups).toEqual(await api('/api/products/groups?local=en'))
          // The replies it carries are not asked for again; the first slide is, at once.
          expect(page).not.toContain('as="fetch"')
          const slide = data.slider.data[0]!.image
          expect(page).toContain(
            `<link rel="preload" as="image" href="${slide}" imagesrcset="${slide}?w=480 480w, ${slide}?w=800 800w, ${slide} 1200w"`,
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

    it("puts home's markup into the page when the server build of it is there", async () => {
      // The entry-server.js stands in for `vite build --ssr`: what it renders shows what it got.
      await withBuild(
        '<!doctype html><html lang="en"><head>\n' +
          '<script type="application/json" id="early-modules">{"#/Orders":["/assets/o.js"]}</script>' +
          '\n<meta charset="UTF-8" />\n<meta name="viewport" content="width=device-width" />' +
          '<title>Store</title><link rel="icon" href="/favicon.svg" type="image/svg+xml" />' +
          '<script type="module" crossorigin src="/assets/index-1.js"></script>' +
          '<link rel="modulepreload" crossorigin href="/assets/home-1.js">' +
          '<link rel="preload" as="style" crossorigin="" href="/assets/home-1.css">' +
          '<link rel="manifest" href="/manifest.webmanifest">' +
          '</head><body><div id="root"><div id="boot"></div></div></body></html>',
        'export async function renderFirstScreen(data, signedIn) {\n' +
          '  const names = data.products.data.map((p) => p.name).join(", ")\n' +
          '  const bar = signedIn ? "<nav>Orders</nav>" : ""\n' +
          '  return { markup: `${bar}<h2>Products</h2><p>${names} $&</p>`, style: "--primary:#123456",' +
          ' title: "Shop & <Co> $\'", icon: "/media/icon&1.svg", signedIn }\n}\n',
        async (built, ssrDir) => {
          const store = ctx.appWith({ distDir: built, ssrDir })
          const res = await store.request('/')
          const page = await res.text()
          const names = (await (
            await store.request('/api/products?page=1&per_page=15&local=en')
          ).json()) as FirstScreen['products']
          expect(page).toContain(
            `<div id="root"><div id="first-screen-markup"><h2>Products</h2><p>${names.data.map((p) => p.name).join(', ')} $&</p></div><div id="boot"></div>`,
          )
          // None of the store's cookies: the browser's first visit, told to keep one.
          expect(page).toContain(
            '<html lang="en" dir="ltr" data-first-visit style="--primary:#123456">',
          )
          expect(res.headers.get('vary')).toMatch(/cookie/i)
          expect(res.headers.get('set-cookie')).toBe(
            'visited=1; Max-Age=34560000; Path=/; HttpOnly; SameSite=Lax',
          )
          // With it the browser comes back: the page, and its validator, are a returning one's.
          const back = await store.request('/', {
            headers: { cookie: 'visited=1', 'if-none-match': res.headers.get('etag')! },
          })
          expect(back.status).toBe(200)
          expect(back.headers.get('set-cookie')).toMatch(/^visited=1; Max-Age=34560000;/)
          expect(await back.text()).toContain(
            '<html lang="en" dir="ltr" style="--primary:#123456">',
          )
          // The language the storefront last chose on this device: its products, its direction.
          const arabic = await (
            await store.request('/', { headers: { cookie: 'theme=x; language=ar' } })
          ).text()
          const arabicNames = (await (
            await store.request('/api/products?page=1&per_page=15&local=ar')
          ).json()) as FirstScreen['products']
          expect(arabic).toContain(
            `<div id="first-screen-markup"><h2>Products</h2><p>${arabicNames.data.map((p) => p.name).join(', ')} $&</p></div>`,
          )
          expect(arabic).toContain('<html lang="ar" dir="rtl" style="--primary:#123456">')
          expect(arabic).toContain('"locale":"ar"')
          expect(arabicNames.data[0]!.name).not.toBe(names.data[0]!.name)
          // A customer signed in on this device: the customer's bars, and the page says so.
          const signedIn = await store.request('/', { headers: { cookie: 'signed-in=1' } })
          const signedInPage = await signedIn.text()
          expect(signedInPage).toContain(
            '<div id="first-screen-markup"><nav>Orders</nav><h2>Products</h2>',
          )
          expect(signedInPage).toContain(
            '<html lang="en" dir="ltr" data-signed-in style="--primary:#123456">',
          )
          expect(signedIn.headers.get('etag')).not.toBe(res.headers.get('etag'))
          expect(page).not.toContain('<nav>Orders</nav>')
          expect(page).toContain("<title>Shop &amp; &lt;Co&gt; $'</title>")
          // The store's icon from the start, not the built one the storefront would swap.
          expect(page).toContain('<link rel="icon" href="/media/icon&amp;1.svg?w=64">')
          expect(page).not.toContain('favicon.svg')
          // Home's styles apply before the first paint; the scripts are asked for after it.
          expect(page).toContain('<link rel="stylesheet" crossorigin="" href="/assets/home-1.css">')
          expect(page.split('</head>')[0]).not.toMatch(
            /<script type="module"|<link rel="modulepreload"/,
          )
          // The first script comes after the names of the early modules and the first slide's
          // preload, which it reads; only it asks for the slide, when it shows home.
          const slide = (
            (await (await store.request('/api/slider/images')).json()) as FirstScreen['slider']
          ).data[0]!.image
          expect(page).toMatch(
            /<head>\n<script type="application\/json" id="early-modules">[^<]*<\/script>\s*<meta charset="UTF-8" \/>\s*<meta name="viewport" [^>]*><template id="first-slide"><link rel="preload" as="image" href="([^"]+)" imagesrcset="[^"]+" imagesizes="[^"]+" fetchpriority="high"><\/template><script>\(function/,
          )
          expect(page.match(/<link rel="preload" as="image" href="([^"]+)"/g)).toEqual([
            `<link rel="preload" as="image" href="${slide}"`,
          ])
          expect(page).toContain(
            '<template id="app-preloads"><link rel="modulepreload" crossorigin href="/assets/index-1.js">' +
              '<link rel="modulepreload" crossorigin href="/assets/home-1.js">' +
              '<link rel="manifest" href="/manifest.webmanifest"></template>',
          )
          // The manifest is linked when the storefront starts, not with the first screen.
          expect(page.split('</head>')[0]).not.toContain('rel="manifest"')
          // Its inline scripts, and only they, are allowed by the policy sent with it.
          const inline = [...page.matchAll(/<script>(.*?)<\/script>/g)].map((m) => m[1]!)
          expect(inline).toHaveLength(2)
          const policy = res.headers.get('content-security-policy') ?? ''
          for (const script of inline) {
            const hash = createHash('sha256').update(script).digest('base64')
            expect(policy).toContain(`'sha256-${hash}'`)
          }
          // Without the server build, the page carries the replies only.
          const plain = await ctx
            .appWith({ distDir: built, ssrDir: join(built, 'none') })
            .request('/')
          const plainPage = await plain.text()
          expect(plainPage).toContain('<div id="root"><div id="boot"></div></div>')
          expect(plainPage).toContain('<script type="module" crossorigin src="/assets/index-1.js">')
          expect(plainPage).toContain('id="first-screen"')
          expect(plainPage).toContain('<link rel="icon" href="/favicon.svg"')
          expect(plainPage.split('</head>')[0]).toContain('<link rel="manifest"')
        },
      )
    })

    it('logs a page once: the replies it carries, asked for in process, only at debug level', async () => {
      const { createApp } = await import('../app')
      const { createLogger } = await import('../log')
      for (const level of ['info', 'debug'] as const) {
        const logged: string[] = []
        const store = createApp({
          db: ctx.db,
          config: { ...ctx.config, distDir: dist },
          logger: createLogger(level, (line) => logged.push(line)),
        })
        expect((await store.request('/')).status).toBe(200)
        const requests = logged
          .map((line) => JSON.parse(line) as { msg: string; path: string; level: string })
          .filter((line) => line.msg === 'request')
          .map((line) => `${line.level} ${line.path}`)
        expect(requests.filter((line) => line.startsWith('info'))).toEqual(['info /'])
        if (level === 'debug') expect(requests).toContain('debug /api/products')
      }
    })

    it('loads the server build as it starts, so the first visitor does not wait for it', async () => {
      const loaded = `loaded-${Date.now()}`
      await withBuild(
        '<!doctype html><html><head></head><body><div id="root"></div></body></html>',
        `globalThis[${JSON.stringify(loaded)}] = true\nexport async function renderFirstScreen() {}\n`,
        async (built, ssrDir) => {
          ctx.appWith({ distDir: built, ssrDir })
          // No page has been asked for.
          await vi.waitFor(() => expect((globalThis as Record<string, unknown>)[loaded]).toBe(true))
        },
      )
    })

    it("answers a product's or package's first screen: markup and the replies it shows", async () => {
      // The entry-server.js stands in for `vite build --ssr`: what it renders shows what it got.
      // The build names the order form's stylesheet; a package's page offers the form.
      const early = JSON.stringify({
        'order-form': ['/assets/purchase-form-a1.js', '/assets/purchase-form-a1.css'],
      })
      await withBuild(
        `<!doctype html><head><script type="application/json" id="early-modules">${early}</script><title>Store</title>`,
        'export async function renderRouteScreen(path, route, replies) {\n' +
          '  const name = (replies.product ?? replies.package).data.name\n' +
          '  const markup = `<h1>${name}</h1><p>${route.kind} ${route.id} at ${path} in ${replies.locale}</p>`\n' +
          "  return { markup, form: route.kind === 'package' }\n}\n",
        async (built, ssrDir) => {
          mkdirSync(join(built, 'assets'))
          writeFileSync(join(built, 'assets/purchase-form-a1.css'), '.form{display:grid}')
          const store = ctx.appWith({ distDir: built, ssrDir })
          const api = async (path: string) => (await store.request(path)).json()
          const product = await store.request('/first-screen/products/products-1/1')
          expect(product.status).toBe(200)
          expect(product.headers.get('cache-control')).toBe('no-cache')
          const screen: unknown = await product.json()
          expect(v.safeParse(RouteScreenSchema, screen).success).toBe(true)
          expect(screen).toMatchObject({
            markup: '<h1>PUBG Mobile UC</h1><p>product 1 at /products/products-1/1 in en</p>',
            locale: 'en',
            website_info: await api('/api/website/info'),
            contact: await api('/api/contact-us/info?local=en'),
            product: await api('/api/products/1?local=en'),
            packages: await api('/api/products/1/packages?local=en&page=1&per_page=300'),
          })
          const again = await store.request('/first-screen/products/products-1/1', {
            headers: { 'If-None-Match': product.headers.get('etag')! },
          })
          expect(again.status).toBe(304)
          // Without `local`, as the page's first script of earlier builds asks: in English.
          const named = await store.request('/first-screen/products/products-1/1?local=en')
          expect(named.headers.get('etag')).toBe(product.headers.get('etag'))

          // In Arabic: the replies in Arabic, kept apart from the English page's.
          const arabic = await store.request('/first-screen/products/products-1/1?local=ar')
          expect(arabic.headers.get('etag')).not.toBe(product.headers.get('etag'))
          const arabicProduct = (await api('/api/products/1?local=ar')) as {
            data: { name: string }
          }
          expect(arabicProduct.data.name).not.toBe('PUBG Mobile UC')
          expect(await arabic.json()).toMatchObject({
            markup: `<h1>${arabicProduct.data.name}</h1><p>product 1 at /products/products-1/1 in ar</p>`,
            locale: 'ar',
            contact: await api('/api/contact-us/info?local=ar'),
            product: arabicProduct,
            packages: await api('/api/products/1/packages?local=ar&page=1&per_page=300'),
          })

          // A product's page without a form has no styles of its own.
          expect(screen).not.toHaveProperty('style')

          const pkg = await store.request('/first-screen/products/products-6/packages/1')
          expect(await pkg.json()).toMatchObject({
            markup: '<h1>60 UC</h1><p>package 1 at /products/products-6/packages/1 in en</p>',
            style: '.form{display:grid}',
            package: await api('/api/products/packages/1?local=en'),
          })
          const arabicPackage = await store.request(
            '/first-screen/products/products-6/packages/1?local=ar',
          )
          expect(await arabicPackage.json()).toMatchObject({
            locale: 'ar',
            package: await api('/api/products/packages/1?local=ar'),
          })
          // A language the store does not speak, in English.
          const french = await store.request('/first-screen/products/products-1/1?local=fr')
          expect(french.status).toBe(400)
          expect(await french.json()).toEqual({ message: 'The request could not be read.' })
          // Unknown products and pages without a first screen of their own.
          for (const path of [
            '/first-screen/products/products-1/99999',
            '/first-screen/products/products-8/1',
            '/first-screen/about-us',
          ])
            expect((await store.request(path)).status, path).toBe(404)
          // Without the server build there is none.
          const plain = ctx.appWith({ distDir: built, ssrDir: join(built, 'none') })
          expect((await plain.request('/first-screen/products/products-1/1')).status).toBe(404)
        },
      )
    })

    it("answers a signed-in customer's orders and wallet: the session's own, never kept", async () => {
      // What it renders shows what it got: the list's first row, the language and the zone.
      await withBuild(
        '<!doctype html><title>Store</title>',
        'export async function renderListScreen(path, kind, replies, timeZone) {\n' +
          '  const first = (replies.orders ?? replies.logs).data[0]\n' +
          '  return `<h1>${kind} at ${path}</h1><p>${first.id} ${replies.locale} ${timeZone}</p>`\n}\n',
        async (built, ssrDir) => {
          const store = ctx.appWith({ distDir: built, ssrDir })
          const buyer = await customer(ctx, { balance: '50' })
          const other = await customer(ctx, { balance: '20' })
          const placed = await order(store, buyer.token, {
            product_id: '24',
            qty: '10',
            wallet_address: 'TXscreen',
          })
          expect(placed.status).toBe(200)
          const orderId = ((await placed.json()) as { data: { id: number } }).data.id
          const headers = (token: string) => ({ authorization: `Bearer ${token}` })
          const api = async (path: string, token = buyer.token) =>
            (await store.request(path, { headers: headers(token) })).json()

          const orders = await store.request('/first-screen/Orders?local=ar&tz=Asia%2FBeirut', {
            headers: headers(buyer.token),
          })
          expect(orders.status).toBe(200)
          expect(orders.headers.get('cache-control')).toBe('private, no-store')
          const screen: unknown = await orders.json()
          expect(v.safeParse(ListScreenSchemas.orders, screen).success).toBe(true)
          expect(screen).toMatchObject({
            markup: `<h1>orders at /Orders</h1><p>${orderId} ar Asia/Beirut</p>`,
            locale: 'ar',
            website_info: await api('/api/website/info'),
            orders: await api('/api/orders?local=ar&page=1'),
            // The balance the account bar shows, with the list; and the footer's links.
            profile: await api('/api/profile?local=ar'),
            contact: await api('/api/contact-us/info?local=ar'),
          })

          // Each session its own: the other customer's wallet holds only its opening credit.
          const wallet = await store.request('/first-screen/wallet?local=en&tz=UTC', {
            headers: headers(other.token),
          })
          const logs = (await api('/api/payment-logs?local=en&page=1', other.token)) as {
            data: { id: number }[]
          }
          expect(await wallet.json()).toMatchObject({
            markup: `<h1>wallet at /wallet</h1><p>${logs.data[0]!.id} en UTC</p>`,
            logs,
            profile: await api('/api/profile?local=en', other.token),
            contact: await api('/api/contact-us/info?local=en'),
          })

          // Without a session, with one that has ended, with a zone or language it cannot use.
          const refused = async (path: string, token?: string) => {
            const reply = await store.request(path, { headers: token ? headers(token) : {} })
            expect(reply.headers.get('cache-control'), path).toBe('private, no-store')
            return [reply.status, ((await reply.json()) as { message: string }).message]
          }
          expect(await refused('/first-screen/Orders?local=en&tz=UTC')).toEqual([
            401,
            'You have to sign in.',
          ])
          expect(await refused('/first-screen/wallet?local=ar&tz=UTC', 'no-such-session')).toEqual([
            401,
            'يجب عليك تسجيل الدخول.',
          ])
          for (const query of ['local=en&tz=Mars%2FOlympus', 'local=fr&tz=UTC', 'local=en'])
            expect((await refused(`/first-screen/Orders?${query}`, buyer.token))[0], query).toBe(
              400,
            )
          // Another page of the list, or an order's own page, has no screen.
          for (const path of ['/first-screen/Orders/1', '/first-screen/orders']) {
            const reply = await store.request(`${path}?local=en&tz=UTC`, {
              headers: headers(buyer.token),
            })
            expect(reply.status, path).toBe(404)
          }
          // Without the server build there is none.
          const plain = ctx.appWith({ distDir: built, ssrDir: join(built, 'none') })
          const none = await plain.request('/first-screen/Orders?local=en&tz=UTC', {
            headers: headers(buyer.token),
          })
          expect(none.status).toBe(404)
        },
      )
    })

    it('serves media with immutable caching and 404 for unknown names', async () => {
      const res = await ctx.app.request(demoSeed.websiteInfo.logo_url)
      expect(res.status).toBe(200)
      expect(res.headers.get('cache-control')).toBe(IMMUTABLE)
      expect(res.headers.get('content-type')).toBe('image/webp')
      expect((await ctx.app.request('/media/nope.12345678.svg')).status).toBe(404)
      expect((await ctx.app.request('/media/../app.ts')).status).toBe(404)
      // A byte range of a picture is its bytes.
      const whole = new Uint8Array(await res.arrayBuffer())
      const part = await ctx.app.request(demoSeed.websiteInfo.logo_url, {
        headers: { range: 'bytes=0-9' },
      })
      expect(part.status).toBe(206)
      expect(new Uint8Array(await part.arrayBuffer())).toEqual(whole.slice(0, 10))
    })

    it("serves a picture's narrower copies (?w=480, ?w=800), and the picture for any other width", async () => {
      const slide = demoSeed.sliderImages[0]!
      const widthOf = async (res: Response) =>
        (await sharp(Buffer.from(await res.arrayBuffer())).metadata()).width
      for (const width of [480, 800]) {
        const copy = await ctx.app.request(`${slide}?w=${width}`)
        expect(copy.status).toBe(200)
        expect(copy.headers.get('content-type')).toBe('image/webp')
        expect(copy.headers.get('cache-control')).toBe(IMMUTABLE)
        expect(await widthOf(copy)).toBe(width)
      }
      const whole = await (await ctx.app.request(slide)).arrayBuffer()
      for (const other of ['?w=600', '?w=', '?w=-480', '?w=4e2', '?w[]=480'])
        expect(await (await ctx.app.request(`${slide}${other}`)).arrayBuffer(), other).toEqual(
          whole,
        )
      // Not wider than it is: the picture itself, not a copy encoded again.
      const logo = demoSeed.websiteInfo.logo_url
      expect(await (await ctx.app.request(`${logo}?w=800`)).arrayBuffer()).toEqual(
        await (await ctx.app.request(logo)).arrayBuffer(),
      )
    })

    it("serves a drawing's PNG at the icon's width and the copies' (?w=64), the drawing itself for any other", async () => {
      const icon = demoSeed.websiteInfo.icon_url!
      expect(icon).toMatch(/\.svg$/)
      for (const width of [ICON_WIDTH, 480]) {
        const png = await ctx.app.request(`${icon}?w=${width}`)
        expect(png.status).toBe(200)
        expect(png.headers.get('content-type')).toBe('image/png')
        expect(png.headers.get('cache-control')).toBe(IMMUTABLE)
        const bytes = Buffer.from(await png.arrayBuffer())
        expect(png.headers.get('content-length')).toBe(String(bytes.length))
        const { format, width: drawn } = await sharp(bytes).metadata()
        expect([format, drawn]).toEqual(['png', width])
      }
      const asked = await ctx.app.request(`${icon}?w=600`)
      expect(asked.headers.get('content-type')).toMatch(/^image\/svg\+xml/)
      expect(await asked.text()).toBe(await (await ctx.app.request(icon)).text())
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
  // A replacement pattern in the data is text, not a pattern.
  const tricky = { ...data, products: { ...data.products, data: [{ id: 1, name: "$& $' $`" }] } }
  const trickyJson = /<script id="first-screen" type="application\/json">(.*?)<\/script>/.exec(
    withFirstScreen('<html><head></head><body></body></html>', tricky as FirstScreen),
  )
  expect(JSON.parse(trickyJson![1]!)).toEqual(tricky)
  const json = /<script id="first-screen" type="application\/json">(.*?)<\/script>/.exec(page)
  expect(JSON.parse(json![1]!)).toEqual(data)
  expect(page).toContain('href="/media/a&quot;.svg"')
})

it('asks for the first slide in the head when a page has no root to hold the markup', () => {
  const data = {
    generated_at: 1,
    locale: 'en',
    website_info: { website_info: '{}' },
    slider: { data: [{ id: 1, image: '/media/slide.svg' }] },
    products: { data: [], total: 0, per_page: 15 },
  } as unknown as FirstScreen
  const page = withFirstScreen('<html><head></head><body></body></html>', data, {
    markup: '<p>Home</p>',
    style: '',
    title: 'Store',
  })
  expect(page).toContain(
    '<link rel="preload" as="image" href="/media/slide.svg" fetchpriority="high"></head>',
  )
  expect(page).not.toContain('<p>Home</p>')
  // A picture made of pixels comes as the copy the slider's picture picks, not another.
  const webp = { ...data, slider: { data: [{ id: 1, image: '/media/slide.webp' }] } }
  expect(withFirstScreen('<html><head></head><body></body></html>', webp)).toContain(
    '<link rel="preload" as="image" href="/media/slide.webp" imagesrcset="/media/slide.webp?w=480 480w, /media/slide.webp?w=800 800w, /media/slide.webp 1200w" imagesizes="(max-width: 640px) calc(100vw - 1.5rem), min(1200px, calc(100vw - 2rem))" fetchpriority="high"></head>',
  )
})

it('names every media file after its content, so immutable caching is safe', () => {
  const files = readdirSync(MEDIA_DIR)
  expect(files.length).toBeGreaterThan(0)
  for (const file of files) {
    const match = /^[a-z0-9-]+\.([0-9a-f]{8})\.(svg|webp)$/.exec(file)
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
