import ipaddr from 'ipaddr.js'
import { IP_WHITELIST_MAX_LINES } from '../contract/token'

/*
 * The API token's IP whitelist, one rule for both sides: the token dialog shows the first bad
 * line before anything is sent, the server refuses the same line (422) and, on every call made
 * with the token, matches the caller's address against the saved lines.
 *
 * A line is an IPv4 address (four decimal parts: `010.0.0.1` or `127.1` are refused, not read
 * as octal or short forms), an IPv6 address (without a zone), or a CIDR range of either. An
 * IPv4-mapped IPv6 address (`::ffff:203.0.113.7`) is its IPv4 address, on both sides of the
 * match. Blank lines are ignored; an empty whitelist allows nothing.
 */

type Address = ipaddr.IPv4 | ipaddr.IPv6
type Range = [Address, number]

export type WhitelistProblem =
  | { kind: 'line'; line: number; text: string }
  | { kind: 'too_many'; max: number }
  /** The lines together let every IPv4 or every IPv6 address in: no whitelist at all. */
  | { kind: 'everyone' }

export type WhitelistCheck =
  { ok: true; lines: string[] } | { ok: false; problem: WhitelistProblem }

/** An IPv4-mapped address or range as the IPv4 one it stands for. */
function unmapped([address, bits]: Range): Range {
  if (address.kind() === 'ipv6') {
    const v6 = address as ipaddr.IPv6
    if (v6.isIPv4MappedAddress() && bits >= 96) return [v6.toIPv4Address(), bits - 96]
  }
  return [address, bits]
}

/** A whitelist line as a range, or null when it is not one. */
export function parseWhitelistLine(line: string): Range | null {
  const text = line.trim()
  if (text === '' || text.includes('%')) return null
  if (text.includes('/')) {
    const valid =
      ipaddr.IPv4.isValidCIDRFourPartDecimal(text) ||
      (ipaddr.IPv6.isValidCIDR(text) && !ipaddr.IPv4.isValidCIDR(text))
    return valid ? unmapped(ipaddr.parseCIDR(text)) : null
  }
  if (ipaddr.IPv4.isValidFourPartDecimal(text)) return [ipaddr.IPv4.parse(text), 32]
  if (ipaddr.IPv6.isValid(text) && !ipaddr.IPv4.isValid(text))
    return unmapped([ipaddr.IPv6.parse(text), 128])
  return null
}

/** A range in one canonical spelling: the network address, no prefix for a single address. */
function rangeText([address, bits]: Range): string {
  const full = address.kind() === 'ipv4' ? 32 : 128
  if (bits === full) return formatted(address)
  const network =
    address.kind() === 'ipv4'
      ? ipaddr.IPv4.networkAddressFromCIDR(`${address.toString()}/${bits}`)
      : ipaddr.IPv6.networkAddressFromCIDR(`${address.toString()}/${bits}`)
  return `${formatted(network)}/${bits}`
}

const formatted = (address: Address) =>
  address.kind() === 'ipv4' ? address.toString() : (address as ipaddr.IPv6).toRFC5952String()

/**
 * Checks a whitelist as typed: its lines in canonical form (blank lines and repeats dropped),
 * or its first problem with the line's number (from 1, blank lines counted).
 */
export function checkWhitelist(text: string): WhitelistCheck {
  const lines: string[] = []
  const rows = text.split(/\r\n|\r|\n/)
  for (const [index, raw] of rows.entries()) {
    if (raw.trim() === '') continue
    const range = parseWhitelistLine(raw)
    if (!range) return { ok: false, problem: { kind: 'line', line: index + 1, text: raw.trim() } }
    const canonical = rangeText(range)
    if (!lines.includes(canonical)) lines.push(canonical)
  }
  if (lines.length > IP_WHITELIST_MAX_LINES)
    return { ok: false, problem: { kind: 'too_many', max: IP_WHITELIST_MAX_LINES } }
  if (coversAll(lines, 'ipv4') || coversAll(lines, 'ipv6'))
    return { ok: false, problem: { kind: 'everyone' } }
  return { ok: true, lines }
}

/**
 * Whether the ranges of one family cover all of its addresses (`0.0.0.0/0`, or `0.0.0.0/1`
 * with `128.0.0.0/1`, ...): the ranges as intervals, sorted and joined from the first address.
 */
function coversAll(lines: string[], kind: 'ipv4' | 'ipv6'): boolean {
  const width = kind === 'ipv4' ? 32 : 128
  const intervals = lines
    .map((line) => parseWhitelistLine(line)!)
    .filter(([address]) => address.kind() === kind)
    .map(([address, bits]) => {
      const start = address.toByteArray().reduce((n, byte) => (n << 8n) | BigInt(byte), 0n)
      return [start, start + (1n << BigInt(width - bits))] as const
    })
    .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
  let reached = 0n
  for (const [start, end] of intervals) {
    if (start > reached) return false
    if (end > reached) reached = end
  }
  return reached >= 1n << BigInt(width)
}

/** An address as a whitelist line would hold it (`::ffff:1.2.3.4` is `1.2.3.4`), or null. */
export function canonicalAddress(address: string | null): string | null {
  if (!address) return null
  const range = parseWhitelistLine(address)
  return range ? rangeText(range) : null
}

/**
 * Whether a caller's address (as the server sees it) is on a saved whitelist. An address that
 * cannot be read, or an empty whitelist, is never allowed.
 */
export function whitelistAllows(whitelist: string | null, address: string | null): boolean {
  if (!whitelist || !address) return false
  let caller: Address
  try {
    caller = ipaddr.process(address.trim())
  } catch {
    return false
  }
  for (const line of whitelist.split('\n')) {
    const range = parseWhitelistLine(line)
    if (range && range[0].kind() === caller.kind() && caller.match(range)) return true
  }
  return false
}
