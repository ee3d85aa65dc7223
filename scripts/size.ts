/**
 * Prints what the home route costs a first visit (the entry, its static imports, home's part of
 * the English catalogue and the home route's chunk) and everything the service worker precaches, gzip
 * (level 9) and brotli (quality 11). Run after a build: `npm run size`. BENCH_JSON=1 adds one
 * line `{"bench":"size",...}` for `npm run bench`.
 */
import { readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'

const dist = join(import.meta.dirname, '..', 'dist')
const BUDGET_KIB = 110

interface Chunk {
  name?: string
  file: string
  imports?: string[]
  css?: string[]
}
const manifest = JSON.parse(readFileSync(join(dist, '.vite/manifest.json'), 'utf8')) as Record<
  string,
  Chunk
>

function withImports(key: string, into: Set<string>): Set<string> {
  const chunk = manifest[key]
  if (!chunk || into.has(chunk.file)) return into
  into.add(chunk.file)
  for (const child of chunk.imports ?? []) withImports(child, into)
  return into
}

// The home route's own chunk: its component and loader and what they add (vite.config.ts).
const homeChunks = Object.keys(manifest).filter((key) => manifest[key]!.name === 'home')
if (!homeChunks.length) throw new Error('The build has no home chunk')
const homeKeys = [
  'index.html',
  // Home's part of the English catalogue (the whole one follows after the first paint).
  'locales/en/messages.po?first.po',
  ...homeChunks,
]
const homeJs = new Set<string>()
for (const key of homeKeys) {
  if (!manifest[key]) throw new Error(`The build has no chunk for ${key}`)
  withImports(key, homeJs)
}

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

const home = sizes(homeJs)
const all = sizes(precachedExisting)
console.log(`Home route JS loaded first (${homeJs.size} files):`)
for (const file of homeJs) console.log(`  ${file}  ${kib(sizes([file]).gzip)} gzip`)
console.log(
  `  total: ${kib(home.raw)} raw, ${kib(home.gzip)} gzip, ${kib(home.brotli)} brotli (budget ${BUDGET_KIB} KiB gzip)`,
)
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
      precachedGzipBytes: all.gzip,
      budgetKiB: BUDGET_KIB,
    }),
  )
}
if (home.gzip > BUDGET_KIB * 1024) {
  console.error(`Over budget: the home route loads ${kib(home.gzip)} gzip first.`)
  process.exitCode = 1
}
