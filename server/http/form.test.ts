import { parseBody } from 'hono/utils/body'
import { describe, expect, it } from 'vitest'
import { simpleMultipart, simpleUrlencoded } from './form'

/** What Hono's full parser (the Fetch API's FormData) reads from the same bytes. */
async function fullParse(body: BodyInit, contentType?: string) {
  const request = new Request('http://form.invalid/', {
    method: 'POST',
    body,
    ...(contentType ? { headers: { 'content-type': contentType } } : {}),
  })
  const type = contentType ?? request.headers.get('content-type')!
  const bytes = Buffer.from(await request.arrayBuffer())
  const again = new Request('http://form.invalid/', {
    method: 'POST',
    body: bytes,
    headers: { 'content-type': type },
  })
  return { type, bytes, fields: { ...(await parseBody(again)) } }
}

const form = (entries: [string, string | Blob, string?][]) => {
  const data = new FormData()
  for (const [name, value, filename] of entries) {
    if (typeof value === 'string') data.append(name, value)
    else data.append(name, value, filename)
  }
  return data
}

describe('reading plain form fields', () => {
  it('reads what a browser or fetch sends exactly as the full parser does', async () => {
    const cases = [
      form([
        ['package_id', '27'],
        ['quantity', '1'],
      ]),
      form([
        ['name', 'رامي'],
        ['message', 'line one\r\nline two\nthree "quoted" --not-a-boundary'],
        ['empty', ''],
      ]),
      form([
        ['qty', '1'],
        ['qty', '2'],
      ]),
      form([['password', '\ufeffbom and \u00e9']]),
    ]
    for (const data of cases) {
      const { type, bytes, fields } = await fullParse(data)
      expect(simpleMultipart(bytes, type)).toEqual(fields)
    }
  })

  it('leaves files, lists and unusual parts to the full parser', async () => {
    const cases = [
      form([['receipt', new Blob(['jpeg'], { type: 'image/jpeg' }), 'r.jpg']]),
      form([
        ['codes[]', 'a'],
        ['codes[]', 'b'],
      ]),
      form([['a"b', 'escaped name']]),
    ]
    for (const data of cases) {
      const { type, bytes } = await fullParse(data)
      expect(simpleMultipart(bytes, type)).toBeUndefined()
    }
    const withHeader =
      '--b\r\nContent-Disposition: form-data; name="a"\r\nContent-Type: text/plain\r\n\r\nx\r\n--b--\r\n'
    expect(simpleMultipart(Buffer.from(withHeader), 'multipart/form-data; boundary=b')).toBe(
      undefined,
    )
    const unclosed = '--b\r\nContent-Disposition: form-data; name="a"\r\n\r\nx'
    expect(simpleMultipart(Buffer.from(unclosed), 'multipart/form-data; boundary=b')).toBe(
      undefined,
    )
    expect(simpleMultipart(Buffer.from('x'), 'multipart/form-data')).toBeUndefined()
  })

  it('keeps the boundary as written (it is case-sensitive)', async () => {
    const { type, bytes, fields } = await fullParse(
      '--AbC\r\nContent-Disposition: form-data; name="a"\r\n\r\n--abc\r\n--AbC--\r\n',
      'multipart/form-data; boundary="AbC"',
    )
    expect(fields).toEqual({ a: '--abc' })
    expect(simpleMultipart(bytes, type)).toEqual(fields)
  })

  it('reads urlencoded bodies as the full parser does', async () => {
    for (const text of ['a=1&b=%C3%A9+x&a=2', 'x', '', 'k=v&k=']) {
      const { bytes, fields } = await fullParse(text, 'application/x-www-form-urlencoded')
      expect(simpleUrlencoded(bytes)).toEqual(fields)
    }
    expect(simpleUrlencoded(Buffer.from('a[]=1&a[]=2'))).toBeUndefined()
  })
})
