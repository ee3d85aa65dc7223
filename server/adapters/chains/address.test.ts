import { describe, expect, it } from 'vitest'
import {
  base58CheckDecode,
  base58CheckEncode,
  base58Decode,
  base58Encode,
  bscAddress,
  isTronAddress,
  tronAddress,
} from './address'
import { USDT_CONTRACT } from './types'

// The USDT contract's address as Tron writes it in hex, with and without the 0x41 prefix.
const USDT_HEX = 'a614f803b6fd780986a42c78ec9c7f77e6ded13c'

describe('base58check', () => {
  it('round-trips bytes, leading zero bytes included', () => {
    for (const bytes of [[], [0], [0, 0, 1, 2], [255, 254, 0, 1], [0x41, ...Array(20).fill(7)]]) {
      const data = Uint8Array.from(bytes)
      expect(base58Decode(base58Encode(data))).toEqual(data)
      expect(base58CheckDecode(base58CheckEncode(data))).toEqual(data)
    }
    expect(base58Encode(Uint8Array.from([0, 0, 1]))).toBe('112')
  })

  it('refuses characters outside the alphabet and a wrong checksum', () => {
    expect(base58Decode('0OIl')).toBeNull()
    expect(base58CheckDecode('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u')).toBeNull()
    expect(base58CheckDecode('1')).toBeNull()
  })
})

describe('Tron addresses', () => {
  it("decodes the USDT contract to 0x41 and the contract's 20 bytes", () => {
    const payload = base58CheckDecode(USDT_CONTRACT.trc20)
    expect(Buffer.from(payload!).toString('hex')).toBe(`41${USDT_HEX}`)
    expect(isTronAddress(USDT_CONTRACT.trc20)).toBe(true)
  })

  it('normalises every spelling to base58check', () => {
    expect(tronAddress(USDT_CONTRACT.trc20)).toBe(USDT_CONTRACT.trc20)
    expect(tronAddress(`41${USDT_HEX}`)).toBe(USDT_CONTRACT.trc20)
    expect(tronAddress(`0x${USDT_HEX}`)).toBe(USDT_CONTRACT.trc20)
    expect(tronAddress(`0x${USDT_HEX.toUpperCase()}`)).toBe(USDT_CONTRACT.trc20)
  })

  it('refuses typos, other prefixes and other lengths', () => {
    // One character changed: the checksum catches it.
    expect(isTronAddress('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u')).toBe(false)
    expect(tronAddress('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u')).toBeNull()
    // A valid base58check string whose payload is not 0x41 + 20 bytes.
    const bitcoinStyle = base58CheckEncode(Uint8Array.from([0x00, ...Array(20).fill(1)]))
    expect(isTronAddress(bitcoinStyle)).toBe(false)
    expect(isTronAddress(base58CheckEncode(Uint8Array.from([0x41, 1, 2])))).toBe(false)
    expect(tronAddress(`42${USDT_HEX}`)).toBeNull()
    expect(tronAddress(`0x${USDT_HEX}00`)).toBeNull()
    expect(tronAddress('')).toBeNull()
  })
})

describe('BSC addresses', () => {
  it('accepts 0x + 40 hex in any case and keeps lower case', () => {
    expect(bscAddress('0x55d398326f99059fF775485246999027B3197955')).toBe(USDT_CONTRACT.bep20)
    expect(bscAddress('0X55D398326F99059FF775485246999027B3197955')).toBeNull()
    expect(bscAddress('0x55d398326f99059ff775485246999027b319795')).toBeNull()
    expect(bscAddress('55d398326f99059ff775485246999027b3197955')).toBeNull()
    expect(bscAddress('0x55d398326f99059ff775485246999027b319795g')).toBeNull()
  })
})
