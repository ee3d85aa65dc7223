import { describe, expect, it } from 'vitest'
import { checkWhitelist, parseWhitelistLine, whitelistAllows } from './ip-whitelist'

describe('checkWhitelist', () => {
  it('keeps every address and range in one spelling, without blanks and repeats', () => {
    expect(
      checkWhitelist(
        [
          ' 203.0.113.7 ',
          '',
          '198.51.100.77/24',
          '2001:DB8:0:0::1',
          '2001:db8::1',
          '2001:db8:abcd::/48',
          '::ffff:192.0.2.5',
          '::ffff:192.0.2.0/120',
          '10.0.0.1/32',
        ].join('\r\n'),
      ),
    ).toEqual({
      ok: true,
      lines: [
        '203.0.113.7',
        '198.51.100.0/24',
        '2001:db8::1',
        '2001:db8:abcd::/48',
        '192.0.2.5',
        '192.0.2.0/24',
        '10.0.0.1',
      ],
    })
  })

  it('an empty whitelist is valid and holds nothing', () => {
    expect(checkWhitelist('')).toEqual({ ok: true, lines: [] })
    // A list that lets every address of a family in is no whitelist.
    for (const everyone of ['0.0.0.0/0', '::/0', '::ffff:0.0.0.0/96', '0.0.0.0/1\n128.0.0.0/1'])
      expect(checkWhitelist(`203.0.113.7\n${everyone}`), everyone).toEqual({
        ok: false,
        problem: { kind: 'everyone' },
      })
    expect(checkWhitelist('0.0.0.0/1\n128.0.0.0/2').ok).toBe(true)
    expect(checkWhitelist('::/1').ok).toBe(true)
    expect(checkWhitelist('\n  \n')).toEqual({ ok: true, lines: [] })
  })

  it('names the first bad line, counting blank lines', () => {
    for (const bad of [
      'not-an-ip',
      '203.0.113',
      '010.0.0.1',
      '3232235777',
      '0x7f.0.0.1',
      '203.0.113.7/33',
      '2001:db8::/129',
      'fe80::1%eth0',
      '203.0.113.7 198.51.100.1',
      '203.0.113.0/',
      '*',
    ]) {
      expect(checkWhitelist(`203.0.113.7\n\n${bad}\n::1`), bad).toEqual({
        ok: false,
        problem: { kind: 'line', line: 3, text: bad },
      })
    }
  })

  it('refuses more than 100 addresses', () => {
    const many = Array.from({ length: 101 }, (_, i) => `10.0.${Math.floor(i / 250)}.${i % 250}`)
    expect(checkWhitelist(many.join('\n'))).toEqual({
      ok: false,
      problem: { kind: 'too_many', max: 100 },
    })
    expect(checkWhitelist(many.slice(0, 100).join('\n')).ok).toBe(true)
  })
})

describe('whitelistAllows', () => {
  const list = ['203.0.113.7', '198.51.100.0/24', '2001:db8:abcd::/48', '2001:db8::1'].join('\n')

  it('matches addresses and ranges of both kinds', () => {
    expect(whitelistAllows(list, '203.0.113.7')).toBe(true)
    expect(whitelistAllows(list, '203.0.113.8')).toBe(false)
    expect(whitelistAllows(list, '198.51.100.200')).toBe(true)
    expect(whitelistAllows(list, '198.51.101.1')).toBe(false)
    expect(whitelistAllows(list, '2001:db8:abcd:12::9')).toBe(true)
    expect(whitelistAllows(list, '2001:db8:abce::9')).toBe(false)
    expect(whitelistAllows(list, '2001:0db8:0000::0001')).toBe(true)
  })

  it('an IPv4-mapped IPv6 address is its IPv4 address, both ways', () => {
    expect(whitelistAllows(list, '::ffff:203.0.113.7')).toBe(true)
    expect(whitelistAllows(list, '::ffff:198.51.100.9')).toBe(true)
    expect(whitelistAllows(list, '::ffff:203.0.113.8')).toBe(false)
    const mapped = checkWhitelist('::ffff:192.0.2.5')
    expect(mapped.ok && whitelistAllows(mapped.lines.join('\n'), '192.0.2.5')).toBe(true)
  })

  it('allows nothing without a whitelist or a readable address', () => {
    expect(whitelistAllows('', '203.0.113.7')).toBe(false)
    expect(whitelistAllows(null, '203.0.113.7')).toBe(false)
    expect(whitelistAllows(list, null)).toBe(false)
    expect(whitelistAllows(list, 'garbage')).toBe(false)
    expect(whitelistAllows(list, '203.0.113.7, 10.0.0.1')).toBe(false)
  })

  it('reads one line', () => {
    expect(parseWhitelistLine('::1')?.[1]).toBe(128)
    expect(parseWhitelistLine('')).toBeNull()
  })
})
