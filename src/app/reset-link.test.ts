import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { resetLinkPage } from '../contract/auth'

describe('the e-mailed reset link (written by the server from the contract)', () => {
  it('opens a route the storefront has', () => {
    const tree = readFileSync('src/routeTree.gen.ts', 'utf8')
    const page = resetLinkPage('$token')
    expect(page.startsWith('/#/')).toBe(true)
    expect(tree).toContain(`fullPath: '${page.slice(2)}'`)
  })
})
