import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import { LOCALES, MESSAGE_IDS, parsePo, readCatalog, t } from './i18n'

const SERVER_DIR = import.meta.dirname

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return entry.name === 'media' ? [] : sourceFiles(path)
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : []
  })
}

/** Top-level ICU arguments: `{field}` and the `max` of `{max, plural, ...}`. */
function placeholders(message: string): string[] {
  const names = new Set<string>()
  let depth = 0
  for (let i = 0; i < message.length; i++) {
    if (message[i] === '{') {
      if (depth === 0) {
        const name = /^\{\s*([\w]+)/.exec(message.slice(i))?.[1]
        if (name) names.add(name)
      }
      depth++
    } else if (message[i] === '}') depth--
  }
  return [...names].sort()
}

describe('server catalogues', () => {
  const catalogs = Object.fromEntries(LOCALES.map((l) => [l, readCatalog(l)]))

  it('translate every message id the server uses, in both languages', () => {
    for (const locale of LOCALES) {
      for (const id of MESSAGE_IDS) {
        expect(catalogs[locale]?.get(id)?.trim(), `${locale}: ${id}`).toBeTruthy()
      }
    }
    for (const id of MESSAGE_IDS) {
      expect(catalogs.ar?.get(id), `ar: ${id} is not Arabic`).toMatch(/[\u0600-\u06FF]/)
    }
  })

  it('hold no ids the server does not know', () => {
    for (const locale of LOCALES) {
      const extra = [...(catalogs[locale]?.keys() ?? [])].filter(
        (id) => !(MESSAGE_IDS as readonly string[]).includes(id),
      )
      expect(extra, locale).toEqual([])
    }
  })

  it('use the same placeholders in both languages', () => {
    for (const id of MESSAGE_IDS) {
      expect(placeholders(catalogs.ar?.get(id) ?? ''), id).toEqual(
        placeholders(catalogs.en?.get(id) ?? ''),
      )
    }
  })

  it('cover every message id written in the server code', () => {
    const idPattern =
      /['"`]((?:messages|validation|field|errors|auth|codes|profile|catalogue|order|wallet|notification|player)\.[a-z_]+(?:\.[a-z_]+)*)['"`]/g
    const used = new Set<string>()
    for (const file of sourceFiles(SERVER_DIR)) {
      if (relative(SERVER_DIR, file) === 'i18n.ts') continue // the list itself
      for (const [, id] of readFileSync(file, 'utf8').matchAll(idPattern)) {
        expect(MESSAGE_IDS, `${relative(SERVER_DIR, file)} uses ${id}`).toContain(id)
        used.add(id!)
      }
    }
    // Guards the scan itself: the contact form alone uses these.
    expect([...used]).toEqual(
      expect.arrayContaining(['messages.sent', 'field.phone_number', 'errors.server']),
    )
  })
})

describe('t()', () => {
  it('fills placeholders and follows Arabic plural rules', () => {
    expect(t('en', 'validation.max_length', { field: 'Name', max: 100 })).toBe(
      'Name may not be longer than 100 characters',
    )
    expect(t('ar', 'validation.max_length', { field: 'الاسم', max: 5 })).toBe(
      'يجب ألا يتجاوز طول الاسم 5 أحرف',
    )
    expect(t('ar', 'validation.max_length', { field: 'الاسم', max: 32 })).toBe(
      'يجب ألا يتجاوز طول الاسم 32 حرفًا',
    )
    expect(t('ar', 'messages.sent')).toBe('تم إرسال رسالتك. شكرًا لك!')
  })
})

describe('parsePo', () => {
  it('reads multi-line strings and escapes, and skips the header and fuzzy entries', () => {
    const po = [
      'msgid ""',
      'msgstr ""',
      '"Language: en\\n"',
      '',
      '#. a comment',
      'msgid "a"',
      'msgstr ""',
      '"first line\\n"',
      '"second \\"quoted\\" line"',
      '',
      '#, fuzzy',
      'msgid "b"',
      'msgstr "unsure"',
      '',
      'msgid "c"',
      'msgstr "back\\\\slash"',
    ].join('\n')
    const entries = parsePo(po)
    expect([...entries.keys()]).toEqual(['a', 'c'])
    expect(entries.get('a')).toBe('first line\nsecond "quoted" line')
    expect(entries.get('c')).toBe('back\\slash')
  })
})
