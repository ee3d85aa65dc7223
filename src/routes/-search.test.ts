import { describe, expect, it } from 'vitest'
import { listSearch, optionalParam, pageSearch, sortedPageSearch } from './-search'

describe("a link's search", () => {
  it('falls back to page 1 for anything but a whole number from 1', () => {
    for (const page of [undefined, 0, -1, 1.5, Number.NaN, '2', null]) {
      expect(pageSearch({ page } as never)).toEqual({ page: 1 })
    }
    expect(pageSearch({ page: 3 } as never)).toEqual({ page: 3 })
  })

  it("keeps a list's filters it knows and drops the rest to their defaults", () => {
    const search = listSearch(['WAITING', 'COMPLETED'])
    expect(
      search({
        status: 'WAITING',
        sort: 'oldest',
        date: '2000-01-01',
        start: '2024-01-02',
        end: '',
        page: 2,
      } as never),
    ).toEqual({
      status: 'WAITING',
      sort: 'oldest',
      date: '2000-01-01',
      start: '2024-01-02',
      end: '',
      page: 2,
    })
    const defaults = { status: '', sort: '', date: '', start: '', end: '', page: 1 }
    expect(
      search({
        status: 'LOST',
        sort: 'random',
        date: 'year',
        start: '2 Jan',
        end: 5,
        page: 0,
        other: 1,
      } as never),
    ).toEqual(defaults)
    expect(search({} as never)).toEqual(defaults)
  })

  it('keeps a sort it knows, newest first otherwise', () => {
    expect(sortedPageSearch({ sort: 'highest', page: 3 } as never)).toEqual({
      sort: 'highest',
      page: 3,
    })
    expect(sortedPageSearch({ sort: 'title' } as never)).toEqual({ sort: '', page: 1 })
  })

  it('refuses an optional value of the wrong type', () => {
    expect(optionalParam('reset', undefined, 'number')).toBeUndefined()
    expect(optionalParam('reset', 1, 'number')).toBe(1)
    expect(() => optionalParam('reset', '1', 'number')).toThrow(/reset/)
    expect(() => optionalParam('redirect', 1, 'string')).toThrow(/redirect/)
  })
})
