import { describe, expect, it, vi } from 'vitest'
import { OWASP_SCRYPT, PasswordHasher } from './passwords'

describe('password hashing', () => {
  const cheap = new PasswordHasher({ ln: 10, r: 8, p: 1 })

  it('uses OWASP scrypt parameters by default: N=2^17, r=8, p=1, 16-byte salt, 64-byte key', async () => {
    expect(OWASP_SCRYPT).toEqual({ ln: 17, r: 8, p: 1 })
    const hasher = new PasswordHasher()
    const stored = await hasher.hash('demo-pass-1')
    const [, scheme, params, salt, key] = stored.split('$')
    expect(scheme).toBe('scrypt')
    expect(params).toBe('ln=17,r=8,p=1')
    expect(Buffer.from(salt!, 'base64')).toHaveLength(16)
    expect(Buffer.from(key!, 'base64')).toHaveLength(64)
    expect(await hasher.verify('demo-pass-1', stored)).toBe(true)
    expect(hasher.needsRehash(stored)).toBe(false)
  })

  it('verifies only the right password, with a fresh salt each time', async () => {
    const a = await cheap.hash('correct horse')
    const b = await cheap.hash('correct horse')
    expect(a).not.toBe(b)
    expect(await cheap.verify('correct horse', a)).toBe(true)
    expect(await cheap.verify('correct horse', b)).toBe(true)
    expect(await cheap.verify('correct horsE', a)).toBe(false)
    expect(await cheap.verify('', a)).toBe(false)
  })

  it('treats the composed and decomposed forms of a character as the same password', async () => {
    const stored = await cheap.hash('caf\u00e9-pass')
    expect(await cheap.verify('cafe\u0301-pass', stored)).toBe(true)
  })

  it('refuses malformed or extravagant stored strings instead of hashing with them', async () => {
    const stored = await cheap.hash('pw-123456')
    for (const bad of [
      '',
      'plain-text',
      stored.replace('ln=10', 'ln=40'),
      stored.replace('r=8', 'r=0'),
      stored.replace('$scrypt$', '$argon2id$'),
    ]) {
      expect(await cheap.verify('pw-123456', bad), bad).toBe(false)
      expect(cheap.needsRehash(bad)).toBe(true)
    }
  })

  it('asks for a rehash when the stored cost is below the current one', async () => {
    const stored = await cheap.hash('pw-123456')
    expect(new PasswordHasher({ ln: 11, r: 8, p: 1 }).needsRehash(stored)).toBe(true)
    expect(cheap.needsRehash(stored)).toBe(false)
    expect(await cheap.verifyNobody('anything')).toBe(false)
  })

  it('makes the unknown-user hash once, up front: an unknown user costs one hash, the first too', async () => {
    const hasher = new PasswordHasher({ ln: 10, r: 8, p: 1 })
    await hasher.prepare()
    const hash = vi.spyOn(hasher, 'hash')
    const verify = vi.spyOn(hasher, 'verify')
    expect(await hasher.verifyNobody('anything-1')).toBe(false)
    expect(await hasher.verifyNobody('anything-2')).toBe(false)
    expect(hash).not.toHaveBeenCalled()
    expect(verify).toHaveBeenCalledTimes(2)
  })
})
