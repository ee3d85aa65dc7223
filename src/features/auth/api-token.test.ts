import { describe, expect, it } from 'vitest'
import { API_TOKEN_PATTERN } from '../../contract/token'
import { newApiToken, whitelistMessage } from './api-token'

describe('newApiToken', () => {
  it('makes tokens of the shape the server takes, a new one each time', () => {
    const tokens = new Set(Array.from({ length: 50 }, () => newApiToken()))
    expect(tokens.size).toBe(50)
    for (const token of tokens) expect(token).toMatch(API_TOKEN_PATTERN)
  })

  it('draws again rather than favour the first letters', () => {
    // 248 and up would make A to H likelier than the rest: they are skipped.
    let calls = 0
    const token = newApiToken((bytes) => {
      calls += 1
      bytes.fill(calls === 1 ? 250 : 61)
      return bytes
    })
    expect(calls).toBe(2)
    expect(token).toBe(`4412|${'9'.repeat(40)}`)
  })
})

describe('whitelistMessage', () => {
  it('names the line and what it holds', () => {
    expect(whitelistMessage({ kind: 'line', line: 2, text: 'not-an-ip' })).toBe(
      'Line 2: “\u2068not-an-ip\u2069” is not an IPv4 or IPv6 address or range.',
    )
    expect(whitelistMessage({ kind: 'too_many', max: 100 })).toBe('Enter at most 100 addresses.')
    expect(whitelistMessage({ kind: 'everyone' })).toBe(
      "These lines let every address use the token. Enter only your servers' addresses.",
    )
  })
})
