import { createHash } from 'node:crypto'
import type { Network } from './types'

/*
 * Addresses of both networks, checked and normalised so that two spellings of one address
 * compare equal.
 *
 * Tron: 21 bytes, 0x41 then the 20-byte account, written in base58check (a 'T' and 33 more
 * characters) for people and TronGrid's account APIs, and in hex (41… or 0x… without the 41)
 * in event data. Base58check is base58 of the bytes followed by the first 4 bytes of
 * sha256(sha256(bytes)), so a mistyped address fails its checksum.
 *
 * BSC: 20 bytes as 0x + 40 hex digits. Mixed case may carry an EIP-55 checksum, but wallets
 * and explorers also print all-lower or all-upper, so case is ignored and lower case kept.
 */

const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz'
const TRON_PREFIX = 0x41

function doubleSha256(bytes: Uint8Array): Buffer {
  return createHash('sha256').update(createHash('sha256').update(bytes).digest()).digest()
}

export function base58Encode(bytes: Uint8Array): string {
  let n = 0n
  for (const b of bytes) n = (n << 8n) | BigInt(b)
  let out = ''
  while (n > 0n) {
    out = ALPHABET[Number(n % 58n)] + out
    n /= 58n
  }
  // Each leading zero byte is written as a leading '1'.
  for (const b of bytes) {
    if (b !== 0) break
    out = '1' + out
  }
  return out
}

export function base58Decode(text: string): Uint8Array | null {
  let n = 0n
  for (const ch of text) {
    const digit = ALPHABET.indexOf(ch)
    if (digit < 0) return null
    n = n * 58n + BigInt(digit)
  }
  const body: number[] = []
  while (n > 0n) {
    body.unshift(Number(n & 0xffn))
    n >>= 8n
  }
  let zeros = 0
  while (text[zeros] === '1') zeros++
  return Uint8Array.from([...new Array<number>(zeros).fill(0), ...body])
}

export function base58CheckEncode(payload: Uint8Array): string {
  return base58Encode(Buffer.concat([payload, doubleSha256(payload).subarray(0, 4)]))
}

export function base58CheckDecode(text: string): Uint8Array | null {
  const bytes = base58Decode(text)
  if (!bytes || bytes.length < 4) return null
  const payload = bytes.subarray(0, -4)
  const check = doubleSha256(payload).subarray(0, 4)
  return Buffer.from(bytes.subarray(-4)).equals(check) ? payload : null
}

/** A base58check Tron account address (0x41 and 20 bytes). */
export function isTronAddress(text: string): boolean {
  const payload = base58CheckDecode(text)
  return payload !== null && payload.length === 21 && payload[0] === TRON_PREFIX
}

/**
 * Any Tron spelling (base58check, 41 + 40 hex, 0x + 40 hex) as base58check; null when it is
 * none of them.
 */
export function tronAddress(text: string): string | null {
  if (/^T[1-9A-HJ-NP-Za-km-z]{33}$/.test(text)) return isTronAddress(text) ? text : null
  const hex = /^(?:0x|41)([0-9a-fA-F]{40})$/.exec(text)?.[1]
  if (!hex) return null
  return base58CheckEncode(Buffer.from(`41${hex}`, 'hex'))
}

/** A BSC address as lower-case 0x hex; null when it is not 0x + 40 hex digits. */
export function bscAddress(text: string): string | null {
  return /^0x[0-9a-fA-F]{40}$/.test(text) ? text.toLowerCase() : null
}

/**
 * A transaction hash in the one spelling the store keeps for its network, or null when the
 * text is not 32 bytes of hex: on Tron 64 lower-case hex digits without a prefix (as TronGrid
 * writes it), on BSC `0x` and 64 lower-case hex digits. Every path that stores or compares a
 * hash (the watchers, `payments:confirm`, the unmatched list) goes through this, so one
 * transaction has one key whichever way it was typed.
 */
export function canonicalTxHash(network: Network, text: string): string | null {
  const hex = text.trim().toLowerCase().replace(/^0x/, '')
  if (!/^[0-9a-f]{64}$/.test(hex)) return null
  return network === 'trc20' ? hex : `0x${hex}`
}
