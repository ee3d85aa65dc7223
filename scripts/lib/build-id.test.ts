import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { buildId } from './build-id'

let root = ''
const write = (path: string, text: string) => {
  mkdirSync(join(root, path, '..'), { recursive: true })
  writeFileSync(join(root, path), text)
}

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'build-id-'))
  write('src/main.tsx', 'export {}')
  write('src/app/page.tsx', 'export const page = 1')
  write('locales/ar/messages.po', 'msgid "Home"')
  write('package-lock.json', '{}')
})
afterEach(() => rmSync(root, { recursive: true, force: true }))

it('is the same for the same inputs, on every run', async () => {
  const id = buildId(root, {})
  expect(id).toMatch(/^[0-9a-f]{12}$/)
  // Not the time of the build: a moment later, the same id.
  await new Promise((resolve) => setTimeout(resolve, 5))
  expect(buildId(root, {})).toBe(id)
})

it('changes with any byte of the storefront, its messages or its locked dependencies', () => {
  const before = buildId(root, {})
  write('src/app/page.tsx', 'export const page = 2')
  const code = buildId(root, {})
  expect(code).not.toBe(before)
  write('locales/ar/messages.po', 'msgid "Home!"')
  const messages = buildId(root, {})
  expect(messages).not.toBe(code)
  write('package-lock.json', '{"lockfileVersion":3}')
  expect(buildId(root, {})).not.toBe(messages)
})

it('changes when a file moves, and not for docs, the server or the tests', () => {
  const before = buildId(root, {})
  write('docs/api.md', '# API')
  write('server/main.ts', 'export {}')
  write('tests/e2e/home.spec.ts', 'export {}')
  expect(buildId(root, {})).toBe(before)
  rmSync(join(root, 'src/app/page.tsx'))
  write('src/page.tsx', 'export const page = 1')
  expect(buildId(root, {})).not.toBe(before)
})

it("changes with the storefront's settings, from the environment or a .env file", () => {
  const before = buildId(root, {})
  const other = buildId(root, { VITE_API_BASE: 'https://api.example.com/api/' })
  expect(other).not.toBe(before)
  expect(buildId(root, { VITE_API_BASE: 'https://api.example.com/api/', HOME: '/x' })).toBe(other)
  write('.env.production', 'VITE_API_BASE=https://api.example.com/api/')
  expect(buildId(root, {})).not.toBe(before)
})

it('is BUILD_ID when it is set', () => {
  expect(buildId(root, { BUILD_ID: 'release-42' })).toBe('release-42')
})
