import { runInNewContext } from 'node:vm'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'
import { defineConfig, loadEnv, type HtmlTagDescriptor, type Plugin } from 'vite'
import { EARLY_ENTRY, EARLY_MODULES, EARLY_MODULES_ID } from './src/api/early-replies'
import { buildId } from './scripts/lib/build-id'
import react from '@vitejs/plugin-react'
import babel from '@rolldown/plugin-babel'
import { lingui, linguiTransformerBabelPreset } from '@lingui/vite-plugin'
import { tanstackRouter } from '@tanstack/router-plugin/vite'
import { vanillaExtractPlugin } from '@vanilla-extract/vite-plugin'
import { VitePWA } from 'vite-plugin-pwa'
import { compression } from 'vite-plugin-compression2'

// Lingui macros go through Babel: its native transform is not installed under Node 20.
process.env.LINGUI_SUPPRESS_BABEL_WARNING ??= '1'

/**
 * V8's explicit compile hint (Chrome 136 on; others ignore the comment): a script whose first
 * line is `//# allFunctionsCalledOnLoad` has all its functions compiled as it streams in, on a
 * background thread, instead of each one on the main thread the first time it runs, which was
 * a fifth of the start's main-thread work (docs/performance.md). On the chunks of 8 KB and
 * more (a small one compiles in no time, and the comment is bytes on every route's first load)
 * but the push library's, which loads alone when a customer turns notifications on. Added
 * after Vite's last change to the code (its preload map goes first in the file), so the
 * compressed copies made before are made again.
 */
function compileHints(): Plugin {
  const HINT = '//# allFunctionsCalledOnLoad\n'
  return {
    name: 'compile-hints',
    apply: 'build',
    generateBundle: {
      order: 'post',
      handler(_, bundle) {
        for (const chunk of Object.values(bundle)) {
          if (chunk.type !== 'chunk' || chunk.name === 'firebase' || chunk.code.length < 8_192)
            continue
          chunk.code = HINT + chunk.code
          const brotli = bundle[`${chunk.fileName}.br`]
          if (brotli?.type === 'asset')
            brotli.source = brotliCompressSync(chunk.code, {
              params: { [constants.BROTLI_PARAM_QUALITY]: 11 },
            })
          const gzip = bundle[`${chunk.fileName}.gz`]
          if (gzip?.type === 'asset') gzip.source = gzipSync(chunk.code, { level: 9 })
        }
      },
    },
  }
}

/** The chunks of the home route (its component and loader), split off by the router plugin. */
const isHomeRouteChunk = (chunk: { moduleIds: readonly string[] }) =>
  chunk.moduleIds.some((id) => id.includes('/src/routes/index.tsx?tsr-split'))

/**
 * The lazy pieces home shows once its first screen is up, whatever the customer does (the footer
 * and the floating WhatsApp button; the install button, when the browser offers to install), by
 * their chunks' names: their messages come with home's first ones (`firstMessages` in
 * src/ui/lazy-piece.tsx), so home does without the whole catalogue until the customer goes on.
 */
const FIRST_PIECES = new Set(['footer', 'install-prompt'])
/**
 * The chunks of the pages that start with the first messages too (a product's and a package's
 * page and the slots of their order form: FIRST_MESSAGES_PAGES, src/app/first-page-paths.ts),
 * by name: what they show first must not wait for the whole catalogue.
 */
const FIRST_PAGE_CHUNKS = new Set(['product-page', 'package-page', 'purchase-slots'])
const FIRST_MESSAGES_CHUNKS = new Set([...FIRST_PIECES, ...FIRST_PAGE_CHUNKS])

/**
 * `locales/{locale}/messages.po?first`: the catalogue with only the messages the home page's
 * first load uses (the code of the entry, the home route and what they import statically) and
 * those of FIRST_MESSAGES_CHUNKS; the whole catalogue follows with the first other lazy piece
 * or route (src/i18n/locale.ts). Lingui compiles the catalogue; the messages left out are taken
 * out once the chunks are known.
 */
function firstMessages(): Plugin {
  const QUERY = '?first'
  const whole = new Map<string, Record<string, unknown>>()
  const placeholder = (locale: string) => `__first_messages_${locale}__`
  return {
    name: 'first-messages',
    enforce: 'pre',
    resolveId: {
      filter: { id: /\.po\?first$/ },
      async handler(source, importer) {
        const resolved = await this.resolve(source.slice(0, -QUERY.length), importer)
        // The Lingui plugin compiles ids ending in .po.
        return resolved && `${resolved.id}${QUERY}.po`
      },
    },
    transform: {
      order: 'post',
      filter: { id: /\.po\?first\.po$/ },
      handler(code, id) {
        const locale = /\/locales\/([^/]+)\/[^/]+\.po\?/.exec(id)?.[1]
        const literal = /JSON\.parse\(("(?:[^"\\]|\\.)*")\)/.exec(code)?.[1]
        if (!locale || !literal) throw new Error(`first-messages: no compiled catalogue in ${id}`)
        whole.set(locale, JSON.parse(runInNewContext(literal) as string) as Record<string, unknown>)
        return {
          code: `export const messages = JSON.parse(${JSON.stringify(placeholder(locale))})`,
        }
      },
    },
    renderChunk(code, _chunk, _options, { chunks }) {
      const locale = [...whole.keys()].find((key) => code.includes(placeholder(key)))
      if (!locale) return null
      const first = new Set<string>()
      const add = (fileName: string) => {
        if (first.has(fileName) || !chunks[fileName]) return
        first.add(fileName)
        chunks[fileName].imports.forEach(add)
      }
      for (const chunk of Object.values(chunks))
        if (chunk.isEntry || isHomeRouteChunk(chunk) || FIRST_MESSAGES_CHUNKS.has(chunk.name))
          add(chunk.fileName)
      // A piece renamed would show its messages' ids: the build stops instead. (The server's
      // build imports the pages that start with them: they are not chunks there.)
      if (this.environment.name === 'client')
        for (const name of FIRST_MESSAGES_CHUNKS)
          if (!Object.values(chunks).some((chunk) => chunk.name === name))
            throw new Error(`first-messages: no chunk named ${name} (FIRST_MESSAGES_CHUNKS)`)
      const sources = [...first].flatMap((fileName) =>
        Object.values(chunks[fileName]!.modules).map((module) => module.code ?? ''),
      )
      const messages = whole.get(locale)!
      const used = Object.fromEntries(
        Object.entries(messages).filter(([id]) =>
          sources.some((source) => ['"', "'", '`'].some((q) => source.includes(q + id + q))),
        ),
      )
      if (!Object.keys(used).length)
        throw new Error('first-messages: the first load uses no message')
      return code.replace(JSON.stringify(placeholder(locale)), JSON.stringify(JSON.stringify(used)))
    },
  }
}

/**
 * The files of EARLY_MODULES (a signed-in list's page and what it runs first, by address and
 * by language), with their styles, as JSON in the page before anything else: the page's first
 * script preloads them when it asks for the list (server/http/first-screen.ts). What the page
 * already loads or preloads (`loaded`: the entry's and home's files) is left out.
 */
function earlyModules(
  chunks: { fileName: string; moduleIds: readonly string[] }[],
  loaded: Set<string>,
  collect: (file: string, into: Set<string>) => void,
  cssOf: (from: Set<string>) => Set<string>,
): HtmlTagDescriptor {
  const loadedCss = cssOf(loaded)
  const byAddress = Object.fromEntries(
    Object.entries(EARLY_MODULES).map(([address, modules]) => {
      const files = new Set<string>()
      for (const module of modules) {
        const chunk = chunks.find((item) => item.moduleIds.some((id) => id.endsWith(`/${module}`)))
        if (!chunk) throw new Error(`early-modules: ${module} is in no chunk`)
        collect(chunk.fileName, files)
      }
      const css = [...cssOf(files)].filter((file) => !loadedCss.has(file))
      return [
        address,
        [...files]
          .filter((file) => !loaded.has(file))
          .concat(css)
          .map((f) => `/${f}`),
      ]
    }),
  )
  return {
    tag: 'script',
    attrs: { type: 'application/json', id: EARLY_MODULES_ID },
    // The entry's files too, the entry first: asked for before the page's many small ones.
    children: JSON.stringify({ ...byAddress, [EARLY_ENTRY]: [...loaded].map((f) => `/${f}`) }),
    injectTo: 'head-prepend',
  }
}

/**
 * The home page's critical path, announced in index.html so it loads in parallel with the
 * framework: the home route's split chunks and the English catalogue (modulepreload), their
 * styles (preload), and the two API replies every page needs first (website info and the
 * slider, the same for everyone).
 */
function homePreload(apiBase: string): Plugin {
  return {
    name: 'home-preload',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, { bundle }) {
        if (!bundle) return []
        const chunks = Object.values(bundle).filter((item) => item.type === 'chunk')
        const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]))
        const collect = (file: string, into: Set<string>) => {
          const chunk = byFile.get(file)
          if (!chunk || into.has(file)) return
          into.add(file)
          chunk.imports.forEach((child) => collect(child, into))
        }
        // Vite already preloads the entry's own imports.
        const entry = new Set<string>()
        for (const chunk of chunks) if (chunk.isEntry) collect(chunk.fileName, entry)
        const files = new Set<string>()
        const add = (file: string) => collect(file, files)
        for (const chunk of chunks) {
          const id = chunk.facadeModuleId ?? ''
          if (isHomeRouteChunk(chunk) || id.endsWith('/locales/en/messages.po?first.po'))
            add(chunk.fileName)
        }
        const tags: HtmlTagDescriptor[] = [...files]
          .filter((file) => !entry.has(file))
          .map((file) => ({
            tag: 'link',
            attrs: { rel: 'modulepreload', crossorigin: '', href: `/${file}` },
            injectTo: 'head',
          }))
        // Their styles too: a route is shown only once its CSS has loaded, and without this the
        // CSS would be asked for only after the scripts ran.
        const cssOf = (from: Set<string>) =>
          new Set(
            [...from].flatMap((file) => [...(byFile.get(file)?.viteMetadata?.importedCss ?? [])]),
          )
        const linked = cssOf(entry)
        for (const file of cssOf(files))
          if (!linked.has(file))
            tags.push({
              tag: 'link',
              attrs: { rel: 'preload', as: 'style', crossorigin: '', href: `/${file}` },
              injectTo: 'head',
            })
        tags.push(earlyModules(chunks, new Set([...entry, ...files]), collect, cssOf))
        for (const path of ['website/info', 'slider/images'])
          tags.push({
            tag: 'link',
            attrs: { rel: 'preload', as: 'fetch', crossorigin: '', href: `${apiBase}${path}` },
            injectTo: 'head',
          })
        return tags
      },
    },
  }
}

/** Where the operator console's code starts: its screen and its routes. */
const isConsoleRoot = (id: string | null) =>
  !!id && /\/src\/(features\/console|routes\/admin)\//.test(id)

/**
 * The files only the operator console uses (its screens, their styles and texts), found from
 * the bundle's graph: what the storefront's entry reaches without going into the console is
 * every customer's; the rest is the console's. The service worker does not precache those:
 * every customer's device would fetch them at install for nothing (49 KiB, a fifth of the
 * files), and the console works online only. Filled by the client build, read by the worker's
 * precache manifest, which is made after it.
 */
const consoleOnlyFiles = new Set<string>()
function consoleOnly(): Plugin {
  return {
    name: 'console-only-files',
    apply: 'build',
    generateBundle(_, bundle) {
      const chunks = Object.values(bundle).filter((file) => file.type === 'chunk')
      const byName = new Map(chunks.map((chunk) => [chunk.fileName, chunk]))
      const files = (chunk: (typeof chunks)[number]) => [
        chunk.fileName,
        ...(chunk.viteMetadata?.importedCss ?? []),
        ...(chunk.viteMetadata?.importedAssets ?? []),
      ]
      const reached = new Set<string>()
      const queue = chunks.filter((chunk) => chunk.isEntry)
      for (let chunk = queue.pop(); chunk; chunk = queue.pop()) {
        if (reached.has(chunk.fileName) || isConsoleRoot(chunk.facadeModuleId)) continue
        for (const file of files(chunk)) reached.add(file)
        for (const next of [...chunk.imports, ...chunk.dynamicImports]) {
          const imported = byName.get(next)
          if (imported) queue.push(imported)
        }
      }
      for (const chunk of chunks)
        for (const file of files(chunk)) if (!reached.has(file)) consoleOnlyFiles.add(file)
    },
  }
}

export default defineConfig(({ mode, isSsrBuild }) => ({
  define: { __BUILD_ID__: JSON.stringify(buildId(import.meta.dirname)) },
  resolve: {
    // React 19 has useSyncExternalStore: the shim Lingui and TanStack import for older Reacts
    // would only add its fallback to the first load.
    alias: [{ find: /^use-sync-external-store\/shim$/, replacement: 'react' }],
  },
  plugins: [
    firstMessages(),
    // The server build (src/entry-server.tsx) renders home's first screen: no page, no preloads.
    !isSsrBuild && homePreload(loadEnv(mode, process.cwd(), 'VITE_').VITE_API_BASE || '/api/'),
    tanstackRouter({
      target: 'react',
      autoCodeSplitting: true,
      routeFileIgnorePrefix: '-',
      // Loaders travel with their page: the first load carries only the routes' outline.
      codeSplittingOptions: {
        defaultBehavior: [
          ['loader'],
          ['component'],
          ['errorComponent', 'notFoundComponent', 'pendingComponent'],
        ],
      },
    }),
    react(),
    lingui(),
    babel({ presets: [linguiTransformerBabelPreset()] }),
    vanillaExtractPlugin(),
    !isSsrBuild && consoleOnly(),
    VitePWA({
      // The server build renders no update prompt; it only needs the register module to resolve.
      disable: isSsrBuild,
      strategies: 'injectManifest',
      srcDir: 'sw',
      filename: 'sw.ts',
      injectRegister: false,
      registerType: 'prompt',
      injectManifest: {
        globPatterns: ['**/*.{js,css,html,svg,png,webmanifest,woff2}'],
        // firebase is only needed once push is turned on; it is fetched then, not precached.
        globIgnores: ['**/firebase-*.js'],
        manifestTransforms: [
          async (entries) => ({
            manifest: entries.filter((entry) => !consoleOnlyFiles.has(entry.url)),
            warnings: [],
          }),
        ],
      },
      manifest: {
        name: 'Wallet Store',
        short_name: 'Wallet Store',
        description: 'Game top-ups, social services, crypto and gift codes, paid from your wallet.',
        start_url: '/#/',
        scope: '/',
        display: 'standalone',
        theme_color: '#0f766e',
        background_color: '#ffffff',
        lang: 'en',
        dir: 'ltr',
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png' },
          {
            src: '/icons/icon-maskable-512.png',
            sizes: '512x512',
            type: 'image/png',
            purpose: 'maskable',
          },
        ],
      },
    }),
    // Brotli (quality 11) and gzip (level 9) copies beside each file, which the server sends
    // as they are (server/http/static.ts): no compressing while a page loads, and smaller.
    !isSsrBuild && compression({ threshold: 1024 }),
    !isSsrBuild && compileHints(),
  ],
  build: {
    target: 'es2022',
    // Every browser of that target but Safari 16 preloads modules itself; there a module is only
    // asked for a moment later. The polyfill would be bytes in every route's first load.
    modulePreload: { polyfill: false },
    sourcemap: false,
    manifest: !isSsrBuild,
    copyPublicDir: !isSsrBuild,
    rolldownOptions: {
      output: {
        // Everything the entry imports statically (the framework and the shell) in the entry's
        // file: one request and one compression window instead of a dozen small shared chunks;
        // what only lazy routes use stays in their chunks.
        codeSplitting: {
          groups: [
            { name: 'initial', tags: ['$initial'] },
            // The kit's pieces home shares with most pages (the dates its offline note writes
            // too, the unavailable dialog's loader a product's page and the order form share,
            // the visually hidden text of its heading and of the lists' labels), on their own:
            // in home's chunk they would make every page load home.
            {
              name: 'kit',
              test: /[\\/]src[\\/](ui[\\/](load-problem|empty-state|field\.css|unavailable-piece|visually-hidden\.css)|i18n[\\/]dates)\.tsx?$/,
            },
            // The pages that only say something (not found, forbidden): the router's too, but
            // in its chunk they would make /403, shown without the router, load it.
            {
              name: 'message-page',
              test: /[\\/]src[\\/](app[\\/]not-found|ui[\\/]message-page)\.tsx$/,
            },
            // The router and the route tree (with what their routes import beyond the entry):
            // every page but home's first screen loads them at once, home after it is shown.
            { name: 'router', test: /[\\/]src[\\/]app[\\/]routed\.tsx$/ },
            // Home's page (which the entry loads before the router) and its route (component
            // and loader), with what they import beyond the entry, in one file: the other
            // pages that share a piece of it (the product grid) load it too.
            {
              name: 'home',
              test: /[\\/]src[\\/](routes[\\/]index\.tsx\?tsr-split=|app[\\/]home-page\.tsx)/,
            },
            // The reply schemas' library and the check that uses it, which come with the first
            // API reply (api/client.ts).
            {
              name: 'valibot',
              test: /node_modules[\\/]valibot[\\/]|[\\/]src[\\/]api[\\/]check-reply\.ts$/,
            },
            // The pieces a customer's own pages share, in a few files instead of nine: a request
            // each is a round trip on a slow connection before the page shows. Split where
            // charging the wallet (the heaviest first load) would load what it does not use:
            // the lists' pieces (`account`) apart from what it shares with them (`payment`).
            // Amounts stay on their own: a product's page formats them too.
            { name: 'money', test: /[\\/]src[\\/]domain[\\/]money\.ts$/ },
            {
              name: 'account',
              test: /[\\/]src[\\/]ui[\\/](dated-list|status-badge|charge-labels)(\.css)?\.tsx?$/,
            },
            {
              name: 'payment',
              test: /[\\/]src[\\/](ui[\\/](price|method-name)\.tsx?|contract[\\/]payment-methods\.ts)$/,
            },
            {
              name: 'lists',
              test: /[\\/]src[\\/]ui[\\/](date-time|saved-note|paged-table|pagination)(\.css)?\.tsx?$/,
            },
            // The install button and its styles (which the update prompt shares), in one file
            // instead of two: loaded when the browser offers to install the store.
            {
              name: 'install-prompt',
              test: /[\\/]src[\\/]pwa[\\/](install-prompt|pwa\.css)\.tsx?$/,
            },
            // The service worker's registration and the library it loads, in one file instead
            // of two fetched one after the other, once the page has loaded.
            {
              name: 'service-worker',
              test: /[\\/]src[\\/]pwa[\\/]service-worker\.ts$|node_modules[\\/]workbox-window[\\/]/,
            },
            // Push only: loaded when a customer turns notifications on, and never precached.
            { name: 'firebase', test: /node_modules[\\/](@firebase|firebase|idb)[\\/]/ },
          ],
        },
      },
    },
  },
  server: { proxy: { '/api': 'http://localhost:8080', '/media': 'http://localhost:8080' } },
}))
