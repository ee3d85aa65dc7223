/**
 * Fails when a message has no Arabic translation, in the storefront's catalogue and the
 * server's. Run by `npm test` (as `npm run i18n:check`).
 */
import { readFileSync, readdirSync } from 'node:fs'
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
console.log(`All ${total} messages have an Arabic translation.`)
