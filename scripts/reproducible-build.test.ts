import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { filesOf } from './lib/build-id'

const dirs: string[] = []
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })))

/** The storefront built into a new directory: each file's path and the hash of its bytes. */
function build(): Record<string, string> {
  const dir = mkdtempSync(join(tmpdir(), 'build-'))
  dirs.push(dir)
  const env = { ...process.env }
  delete env.BUILD_ID
  execFileSync(process.execPath, ['node_modules/vite/bin/vite.js', 'build', '--outDir', dir], {
    env,
    // A failed build's output comes with the error.
    stdio: 'pipe',
  })
  return Object.fromEntries(
    filesOf(dir, '.')
      .sort()
      .map((name) => [
        name,
        createHash('sha256')
          .update(readFileSync(join(dir, name)))
          .digest('hex'),
      ]),
  )
}

// Servers built apart behind one proxy must name their files alike, and a release that does
// not change the storefront must not make every customer fetch it again.
it('builds the same files from the same source, whenever it runs', () => {
  const first = build()
  expect(Object.keys(first).length).toBeGreaterThan(50)
  expect(build()).toEqual(first)
}, 180_000)
