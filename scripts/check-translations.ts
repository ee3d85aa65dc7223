/**
 * Fails when a message has no Arabic translation, in the storefront's catalogue and the
 * server's, and when the storefront's catalogue is not what the source says (a message added
 * without `npm run i18n:extract`: the build would show its id). Run by `npm test` (as
 * `npm run i18n:check`).
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

interface Entry {
  id: string
  str: string
}

export function parsePo(text: string): Entry[] {
  const entries: Entry[] = []
  let current: Entry | null = null
  let field: 'id' | 'str' | null = null
  const unquote = (line: string) => JSON.parse(line) as string
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim()
    if (line.startsWith('msgid ')) {
      if (current) entries.push(current)
      current = { id: unquote(line.slice(6)), str: '' }
      field = 'id'
    } else if (line.startsWith('msgstr ') && current) {
      current.str = unquote(line.slice(7))
      field = 'str'
    } else if (line.startsWith('"') && current && field) {
      current[field] += unquote(line)
    } else if (line === '') field = null
  }
  if (current) entries.push(current)
  return entries.filter((entry) => entry.id !== '')
}

const dir = join(import.meta.dirname, '..', 'locales', 'ar')
let missing = 0
let total = 0
for (const file of readdirSync(dir).filter((name) => name.endsWith('.po'))) {
  for (const entry of parsePo(readFileSync(join(dir, file), 'utf8'))) {
    total++
    if (!entry.str.trim()) {
      missing++
      console.error(`locales/ar/${file}: no Arabic for ${JSON.stringify(entry.id)}`)
    }
  }
}
if (missing) {
  console.error(`${missing} of ${total} messages have no Arabic translation.`)
  process.exit(1)
}

// The messages the source has now, extracted into a scratch folder.
const scratch = mkdtempSync(join(tmpdir(), 'lingui-check-'))
try {
  const run = spawnSync('lingui', ['extract', '--clean', '--locale', 'en'], {
    env: { ...process.env, LINGUI_CATALOG_DIR: scratch },
    encoding: 'utf8',
  })
  if (run.status !== 0) {
    console.error(run.stderr || run.stdout)
    process.exit(1)
  }
  const ids = (file: string) => new Set(parsePo(readFileSync(file, 'utf8')).map((e) => e.id))
  let stale = false
  // The storefront's catalogue and the console's (lingui.config.ts).
  for (const catalogue of ['messages', 'console']) {
    const source = ids(join(scratch, 'en', `${catalogue}.po`))
    const kept = ids(join(import.meta.dirname, '..', 'locales', 'en', `${catalogue}.po`))
    for (const id of [...source].filter((id) => !kept.has(id))) {
      console.error(`not in locales/*/${catalogue}.po: ${JSON.stringify(id)}`)
      stale = true
    }
    for (const id of [...kept].filter((id) => !source.has(id))) {
      console.error(`no longer in the source (${catalogue}.po): ${JSON.stringify(id)}`)
      stale = true
    }
  }
  if (stale) {
    console.error('Run `npm run i18n:extract` and translate what is new.')
    process.exit(1)
  }
} finally {
  rmSync(scratch, { recursive: true, force: true })
}
console.log(`All ${total} messages have an Arabic translation.`)
