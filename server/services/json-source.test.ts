import { describe, expect, it } from 'vitest'
import { JsonSyntaxError, parseJsonSource } from './json-source'

const syntaxError = (text: string) => {
  try {
    parseJsonSource(text)
  } catch (err) {
    if (err instanceof JsonSyntaxError) return { message: err.message, ...err.position }
    throw err
  }
  throw new Error('no error')
}

describe('parseJsonSource', () => {
  it('reads what JSON.parse reads', () => {
    for (const text of [
      '{"a": [1, -2.5e3, true, false, null, "x\\u00e9\\n"], "b": {}, "c": []}',
      '"only"',
      '  42  ',
      '\ufeff{"bom": 1}',
      '{"ar": "شدات ببجي"}',
    ]) {
      expect(parseJsonSource(text).value).toEqual(JSON.parse(text.replace(/^\ufeff/, '')))
    }
  })

  it('knows where each value and key starts', () => {
    const text = '{\n  "products": [\n    { "id": 1,\n      "name": "x" },\n    7\n  ]\n}'
    const source = parseJsonSource(text)
    expect(source.locate([])).toEqual({ line: 1, column: 1 })
    expect(source.locate(['products'])).toEqual({ line: 2, column: 3 })
    expect(source.locate(['products', 0])).toEqual({ line: 3, column: 5 })
    expect(source.locate(['products', 0, 'name'])).toEqual({ line: 4, column: 7 })
    expect(source.locate(['products', 1])).toEqual({ line: 5, column: 5 })
    expect(source.locate(['products', 0, 'missing'])).toBeUndefined()
    expect(source.locateNearest(['products', 0, 'missing', 3])).toEqual({ line: 3, column: 5 })
  })

  it('reports syntax errors at their line and column', () => {
    expect(syntaxError('{\n  "a": 1,\n}')).toMatchObject({ line: 3, column: 1 })
    expect(syntaxError('{"a": tru}')).toMatchObject({ line: 1, column: 7 })
    expect(syntaxError('[1 2]')).toMatchObject({
      line: 1,
      column: 4,
      message: "Expected ',' or ']' but found \"2\"",
    })
    expect(syntaxError('{"a": "b\nc"}')).toMatchObject({ line: 1, column: 9 })
    expect(syntaxError('{"a": 1} x')).toMatchObject({ line: 1, column: 10 })
    expect(syntaxError('{"a": 1, "a": 2}')).toMatchObject({
      message: 'Duplicate key "a"',
      column: 10,
    })
    expect(syntaxError('')).toMatchObject({ message: 'Unexpected the end of the file' })
    expect(syntaxError('['.repeat(200))).toMatchObject({ message: 'Nesting is too deep' })
  })

  it('keeps "__proto__" an ordinary key', () => {
    const { value } = parseJsonSource('{"__proto__": {"polluted": true}}')
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype)
    expect(Object.keys(value as object)).toEqual(['__proto__'])
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })
})
