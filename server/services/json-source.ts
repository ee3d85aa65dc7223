/**
 * A strict JSON reader that remembers where every value starts, so a problem found later
 * (by a schema, at a path such as products[3].company_price) can be reported at its line.
 * JSON.parse gives no positions for values, and the file is small enough to read twice.
 */

export type JsonPath = readonly (string | number)[]

export interface Position {
  /** 1-based. */
  line: number
  /** 1-based, in characters. */
  column: number
}

export class JsonSyntaxError extends Error {
  constructor(
    message: string,
    readonly position: Position,
  ) {
    super(message)
    this.name = 'JsonSyntaxError'
  }
}

export interface JsonSource {
  value: unknown
  /** Where the value at `path` starts (for an object member, where its key starts). */
  locate(path: JsonPath): Position | undefined
  /** Like locate, but falls back to the nearest enclosing value that exists. */
  locateNearest(path: JsonPath): Position
}

const MAX_DEPTH = 100
const pathKey = (path: JsonPath) => JSON.stringify(path)

export function positionAt(text: string, offset: number): Position {
  let line = 1
  let lineStart = 0
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++
      lineStart = i + 1
    }
  }
  return { line, column: offset - lineStart + 1 }
}

/** Reads `text` as JSON; throws JsonSyntaxError with the line and column of the problem. */
export function parseJsonSource(text: string): JsonSource {
  const offsets = new Map<string, number>()
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0

  const fail = (message: string, at = i): never => {
    throw new JsonSyntaxError(message, positionAt(text, at))
  }
  const describe = (at: number) =>
    at >= text.length ? 'the end of the file' : `${JSON.stringify(text[at])}`

  const skipSpace = () => {
    while (i < text.length) {
      const ch = text[i]
      if (ch === ' ' || ch === '\t' || ch === '\n' || ch === '\r') i++
      else break
    }
  }

  const readString = (): string => {
    const start = i
    i++ // opening quote
    while (i < text.length) {
      const ch = text.charCodeAt(i)
      if (ch === 0x22) {
        i++
        try {
          return JSON.parse(text.slice(start, i)) as string
        } catch {
          return fail('Invalid escape or control character in a string', start)
        }
      }
      if (ch === 0x5c) i += 2
      else if (ch < 0x20) return fail('Unescaped control character (e.g. a line break) in a string')
      else i++
    }
    return fail('Unterminated string', start)
  }

  const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y
  const readValue = (path: (string | number)[], depth: number): unknown => {
    if (depth > MAX_DEPTH) fail('Nesting is too deep')
    skipSpace()
    if (!offsets.has(pathKey(path))) offsets.set(pathKey(path), i)
    const ch = text[i]
    if (ch === '{') {
      i++
      const object: Record<string, unknown> = {}
      const seen = new Set<string>()
      skipSpace()
      if (text[i] === '}') {
        i++
        return object
      }
      for (;;) {
        skipSpace()
        if (text[i] !== '"') fail(`Expected a key in double quotes but found ${describe(i)}`)
        const keyAt = i
        const key = readString()
        if (seen.has(key)) fail(`Duplicate key ${JSON.stringify(key)}`, keyAt)
        seen.add(key)
        offsets.set(pathKey([...path, key]), keyAt)
        skipSpace()
        if (text[i] !== ':') fail(`Expected ':' after the key but found ${describe(i)}`)
        i++
        const value = readValue([...path, key], depth + 1)
        Object.defineProperty(object, key, {
          value,
          enumerable: true,
          writable: true,
          configurable: true,
        })
        skipSpace()
        if (text[i] === ',') {
          i++
          continue
        }
        if (text[i] === '}') {
          i++
          return object
        }
        fail(`Expected ',' or '}' but found ${describe(i)}`)
      }
    }
    if (ch === '[') {
      i++
      const array: unknown[] = []
      skipSpace()
      if (text[i] === ']') {
        i++
        return array
      }
      for (;;) {
        array.push(readValue([...path, array.length], depth + 1))
        skipSpace()
        if (text[i] === ',') {
          i++
          continue
        }
        if (text[i] === ']') {
          i++
          return array
        }
        fail(`Expected ',' or ']' but found ${describe(i)}`)
      }
    }
    if (ch === '"') return readString()
    for (const [word, value] of [
      ['true', true],
      ['false', false],
      ['null', null],
    ] as const) {
      if (text.startsWith(word, i)) {
        i += word.length
        return value
      }
    }
    NUMBER.lastIndex = i
    const number = NUMBER.exec(text)
    if (number) {
      i += number[0].length
      return Number(number[0])
    }
    return fail(`Unexpected ${describe(i)}`)
  }

  const value = readValue([], 0)
  skipSpace()
  if (i < text.length) fail(`Unexpected ${describe(i)} after the end of the JSON value`)

  const locate = (path: JsonPath) => {
    const offset = offsets.get(pathKey(path))
    return offset === undefined ? undefined : positionAt(text, offset)
  }
  return {
    value,
    locate,
    locateNearest(path) {
      for (let n = path.length; n >= 0; n--) {
        const found = locate(path.slice(0, n))
        if (found) return found
      }
      return { line: 1, column: 1 }
    },
  }
}
