import { createHash } from 'node:crypto'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'

/**
 * What the storefront's files are made from: its sources, messages, service worker, public
 * files, build settings and locked dependencies (with the `VITE_` settings from the environment
 * and the `.env` files). Docs, the server and the tests are not.
 */
const BUILD_INPUTS = [
  'src',
  'locales',
  'sw',
  'public',
  'index.html',
  'vite.config.ts',
  'lingui.config.ts',
  'tsconfig.base.json',
  'tsconfig.app.json',
  'tsconfig.sw.json',
  'package-lock.json',
]

/**
 * The files under `path` in `root`, relative to `root` (`path` itself when it is a file; none
 * when it does not exist).
 */
export function filesOf(root: string, path: string): string[] {
  const full = join(root, path)
  let stats
  try {
    stats = statSync(full)
  } catch {
    return []
  }
  if (!stats.isDirectory()) return [path]
  return readdirSync(full, { recursive: true, encoding: 'utf8' })
    .map((name) => join(path, name))
    .filter((name) => statSync(join(root, name)).isFile())
}

/**
 * The build's id, which busts the storefront's saved query cache: `BUILD_ID` when set, otherwise
 * a hash of the build's inputs under `root`. The same inputs give the same id, so a build is the
 * same files on every run and machine (servers behind one proxy, each built apart, name their
 * files alike), and a build whose inputs differ in any byte gets a new one.
 */
export function buildId(root: string, env: Record<string, string | undefined> = process.env) {
  if (env.BUILD_ID) return env.BUILD_ID
  const hash = createHash('sha256')
  const dotEnv = readdirSync(root).filter((name) => name.startsWith('.env'))
  const files = [...BUILD_INPUTS, ...dotEnv]
    .flatMap((path) => filesOf(root, path))
    // One order on every machine, whatever the file system lists first.
    .map((file) => file.split('\\').join('/'))
    .sort()
  for (const file of files) {
    hash
      .update(`${file}\0`)
      .update(readFileSync(join(root, file)))
      .update('\0')
  }
  const settings = Object.entries(env).filter(([name]) => name.startsWith('VITE_'))
  hash.update(JSON.stringify(settings.sort(([a], [b]) => (a < b ? -1 : 1))))
  return hash.digest('hex').slice(0, 12)
}
