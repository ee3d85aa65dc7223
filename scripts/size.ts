/**
 * Prints what the home route costs a first visit (the entry, its static imports, home's part of
 * the English catalogue and the home route's chunk), what every other route costs a first
 * visit, the framework's floor (scripts/lib/framework-floor.tsx, built the same way) and
 * everything the service worker precaches, gzip (level 9) and brotli (quality 11). Run after a
 * build: `npm run size`; it exits 1 when home or any other route loads more than the budget
 * first. BENCH_JSON=1 adds one line `{"bench":"size",...}` for `npm run bench`.
 */
import { readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'
import react from '@vitejs/plugin-react'
import { build, type Rolldown } from 'vite'
import { FIRST_MESSAGES_PAGES, firstPageName } from '../src/app/first-page-paths'

const dist = join(import.meta.dirname, '..', 'dist')
const BUDGET_KIB = 110

interface Chunk {
  name?: string
  file: string
  imports?: string[]
  dynamicImports?: string[]
  css?: string[]
}
const manifest = JSON.parse(readFileSync(join(dist, '.vite/manifest.json'), 'utf8')) as Record<
  string,
  Chunk
>

/** The chunks `starts` name and those they import statically; `importsOf` knows each one's. */
function reachable(
  starts: Iterable<string>,
  importsOf: (id: string) => readonly string[] | undefined,
): Set<string> {
  const seen = new Set<string>()
  const visit = (id: string) => {
    const imports = importsOf(id)
    if (!imports || seen.has(id)) return
    seen.add(id)
    imports.forEach(visit)
  }
  for (const id of starts) visit(id)
  return seen
}

/** The files of the manifest's chunks `keys` and of what they import statically. */
const withImports = (keys: Iterable<string>) =>
  new Set(
    [...reachable(keys, (key) => manifest[key] && (manifest[key].imports ?? []))].map(
      (key) => manifest[key]!.file,
    ),
  )

// The home route's own chunk: its component and loader and what they add (vite.config.ts).
const homeChunks = Object.keys(manifest).filter((key) => manifest[key]!.name === 'home')
if (!homeChunks.length) throw new Error('The build has no home chunk')
const FIRST_MESSAGES = 'locales/en/messages.po?first.po'
const WHOLE_MESSAGES = 'locales/en/messages.po'
const homeKeys = [
  'index.html',
  // Home's part of the English catalogue (the whole one follows after the first paint).
  FIRST_MESSAGES,
  ...homeChunks,
]
for (const key of homeKeys) if (!manifest[key]) throw new Error(`The build has no chunk for ${key}`)
const homeJs = withImports(homeKeys)
/** The router and the route tree: other pages load them first, home once it is shown. */
const routerKey = Object.keys(manifest).find((key) => manifest[key]!.name === 'router')
if (!routerKey) throw new Error('The build has no router chunk')
const ROUTED: string = routerKey
const routerJs = [...withImports([ROUTED])].filter((file) => !homeJs.has(file))

function sizes(files: Iterable<string>) {
  let raw = 0
  let gzip = 0
  let brotli = 0
  for (const file of files) {
    const bytes = readFileSync(join(dist, file))
    raw += bytes.length
    gzip += gzipSync(bytes, { level: 9 }).length
    brotli += brotliCompressSync(bytes, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 11 },
    }).length
  }
  return { raw, gzip, brotli }
}

const kib = (n: number) => `${(n / 1024).toFixed(1)} KiB`
const sw = readFileSync(join(dist, 'sw.js'), 'utf8')
const precached = [...sw.matchAll(/"url":"([^"]+)"/g)].map((match) => match[1]!)
const precachedExisting = precached.filter((file) =>
  statSync(join(dist, file), { throwIfNoEntry: false }),
)

/** A route's address, its parameters 1 (`groups/$id` is `/groups/1`, `reset-password.$token` `/reset-password/1`). */
const pathOf = (route: string) =>
  `/${route
    .replace(/(^|\/)_[^/]+\//g, '$1')
    .replace(/\./g, '/')
    .replace(/\{\$\w+\}|\$\w+/g, '1')}`.replace(/\/index$/, '')

/**
 * Another route's first visit: the entry and its static imports, the router and the route
 * tree, the route's split chunks (component, loader) with theirs, and the whole English
 * catalogue (a product's or package's page only its first part, as home:
 * FIRST_MESSAGES_PAGES). A page shown first without the router (src/app/first-pages.tsx) loads
 * instead what its route's chunks import but the router: the page's own chunk. The lazy pieces
 * a page asks for as it renders (the order form, a dialog, the reply schemas with the first API
 * reply) come after and are not counted.
 */
function routeFirstLoads() {
  const byRoute = new Map<string, string[]>()
  for (const key of Object.keys(manifest)) {
    const route = /^src\/routes\/(.+)\.tsx\?tsr-split=/.exec(key)?.[1]
    // Pathless layouts (_auth, _guest) are not visited on their own.
    if (route && !/^_[^/]+$/.test(route)) byRoute.set(route, [...(byRoute.get(route) ?? []), key])
  }
  // Chunks named after the libraries that must stay off the pages that do not use them.
  const libraries: Record<string, string> = {
    valibot: 'valibot',
    dialog: 'Radix Dialog',
    'qr-code-styling': 'qr-code-styling',
    firebase: 'firebase',
  }
  const nameOf = new Map(Object.values(manifest).map((chunk) => [chunk.file, chunk.name]))
  return [...byRoute]
    .map(([route, keys]) => {
      const name = firstPageName(pathOf(route))
      const page = name
        ? keys.flatMap((key) => manifest[key]!.imports ?? []).filter((key) => key !== ROUTED)
        : [ROUTED, ...keys]
      const messages = name && FIRST_MESSAGES_PAGES.has(name) ? FIRST_MESSAGES : WHOLE_MESSAGES
      const files = withImports(['index.html', messages, ...page])
      const loads = [...files].flatMap((file) => libraries[nameOf.get(file) ?? ''] ?? [])
      return { route, files: files.size, gzip: sizes(files).gzip, loads }
    })
    .sort((a, b) => a.route.localeCompare(b.route))
}

/** The floor: scripts/lib/framework-floor.tsx built as the storefront is, its first load. */
async function frameworkFloor(): Promise<number> {
  const output = (await build({
    configFile: false,
    logLevel: 'silent',
    plugins: [react()],
    build: {
      write: false,
      target: 'es2022',
      rolldownOptions: { input: join(import.meta.dirname, 'lib/framework-floor.tsx') },
    },
  })) as Rolldown.RolldownOutput
  const chunks = new Map(
    output.output.flatMap((item) => (item.type === 'chunk' ? [[item.fileName, item]] : [])),
  )
  const entries = [...chunks.values()].filter((chunk) => chunk.isEntry)
  const first = reachable(
    entries.map((chunk) => chunk.fileName),
    (file) => chunks.get(file)?.imports,
  )
  return [...first].reduce(
    (sum, file) => sum + gzipSync(chunks.get(file)!.code, { level: 9 }).length,
    0,
  )
}

const home = sizes(homeJs)
const all = sizes(precachedExisting)
console.log(`Home route JS loaded first (${homeJs.size} files):`)
for (const file of homeJs) console.log(`  ${file}  ${kib(sizes([file]).gzip)} gzip`)
console.log(
  `  total: ${kib(home.raw)} raw, ${kib(home.gzip)} gzip, ${kib(home.brotli)} brotli (budget ${BUDGET_KIB} KiB gzip)`,
)
const floor = await frameworkFloor()
console.log(
  `  of which the framework's floor (React DOM, TanStack Query, Lingui; scripts/lib/framework-floor.tsx): ${kib(floor)} gzip; the store's own code: ${kib(home.gzip - floor)}`,
)
const router = sizes(routerJs)
console.log(
  `  then, once home is shown, the router and the route tree (${routerJs.length} file${routerJs.length === 1 ? '' : 's'}): ${kib(router.gzip)} gzip`,
)
const routes = routeFirstLoads()
console.log(
  `Other routes, JS loaded first (the entry, the route, the whole catalogue or for a product or package its first part), gzip (budget ${BUDGET_KIB} KiB):`,
)
for (const route of routes)
  console.log(
    `  ${route.route.padEnd(44)} ${kib(route.gzip).padStart(10)}  ${String(route.files).padStart(2)} files${route.loads.length ? `  with ${route.loads.join(', ')}` : ''}`,
  )
// The operator console (/#/admin): its own chunks, and never a part of home's first load.
const consoleKeys = Object.keys(manifest).filter((key) => key.startsWith('src/routes/admin'))
const consoleFirst = Math.max(
  ...routes.filter((route) => /^admin(\/|$)/.test(route.route)).map((route) => route.gzip),
)
const consoleOwn = new Set(
  [...withImports(consoleKeys)].filter((file) => !homeJs.has(file) && !routerJs.includes(file)),
)
const consoleInHome = consoleKeys.map((key) => manifest[key]!.file).filter((f) => homeJs.has(f))
console.log(
  `Console (/#/admin), first load: ${kib(consoleFirst)} gzip, of which the console's own files ${kib(sizes(consoleOwn).gzip)}; in home's first load: ${consoleInHome.join(', ') || 'nothing'}`,
)
if (consoleInHome.length) process.exitCode = 1
console.log(
  `Precached (${precachedExisting.length} files): ${kib(all.raw)} raw, ${kib(all.gzip)} gzip, ${kib(all.brotli)} brotli`,
)
if (process.env.BENCH_JSON === '1') {
  // One line for `npm run bench`.
  console.log(
    JSON.stringify({
      bench: 'size',
      homeFiles: homeJs.size,
      homeGzipBytes: home.gzip,
      homeBrotliBytes: home.brotli,
      floorGzipBytes: floor,
      homeRouterGzipBytes: router.gzip,
      routes: routes.map(({ route, gzip }) => ({ route, gzipBytes: gzip })),
      precachedGzipBytes: all.gzip,
      budgetKiB: BUDGET_KIB,
    }),
  )
}
// The pages shown without the router (src/app/first-pages.tsx) are counted without it: none of
// the entry's lazy imports but the router's own may bring its chunk.
const withRouter = (manifest['index.html']!.dynamicImports ?? []).filter(
  (key) => key !== ROUTED && withImports([key]).has(manifest[ROUTED]!.file),
)
for (const key of withRouter) console.error(`${key} loads the router's chunk.`)
if (withRouter.length) process.exitCode = 1
// Every page's first load is held to the budget, home's and each other route's.
const over = [{ route: 'home', gzip: home.gzip }, ...routes].filter(
  ({ gzip }) => gzip > BUDGET_KIB * 1024,
)
for (const { route, gzip } of over)
  console.error(`Over budget: ${route} loads ${kib(gzip)} gzip first (budget ${BUDGET_KIB} KiB).`)
if (over.length) process.exitCode = 1
