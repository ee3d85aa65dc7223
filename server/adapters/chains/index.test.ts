import { describe, expect, it } from 'vitest'
import { loadConfig } from '../../config'
import { createChainWatchers } from '.'

describe('createChainWatchers', () => {
  it('creates none when no address is set', () => {
    expect(createChainWatchers(loadConfig({ NODE_ENV: 'test' }).chains)).toEqual([])
  })

  it('creates one watcher per configured network, on the normalised address', () => {
    const { chains } = loadConfig({
      NODE_ENV: 'test',
      USDT_TRC20_ADDRESS: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
      USDT_BEP20_ADDRESS: '0xAbCdEf0123456789aBcDeF0123456789AbCdEf01',
      BSC_RPC_URL: 'http://127.0.0.1:8545',
    })
    const watchers = createChainWatchers(chains)
    expect(watchers.map((w) => [w.network, w.address])).toEqual([
      ['trc20', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t'],
      ['bep20', '0xabcdef0123456789abcdef0123456789abcdef01'],
    ])
    expect(createChainWatchers({ ...chains, trc20: undefined }).map((w) => w.network)).toEqual([
      'bep20',
    ])
  })
})
