/**
 * A form body's text fields, read straight from its bytes: what the storefront and most
 * clients send (a few `Content-Disposition: form-data; name="..."` parts, or a urlencoded
 * body). Anything else in it (a file, a part with other headers, a `name[]` list, an escaped
 * name) is left to the full parser, so the fields are always the ones `c.req.parseBody()` would
 * give (docs/architecture.md, "Orders").
 */

const CRLF = Buffer.from('\r\n')
const HEADER_END = Buffer.from('\r\n\r\n')
const DISPOSITION = /^content-disposition:[ \t]*form-data;[ \t]*name="([^"%\\\r\n]*)"[ \t]*$/i

/** The boundary of a multipart content type, or undefined. */
function boundaryOf(contentType: string): string | undefined {
  const match = /;\s*boundary=(?:"([^"]{1,70})"|([^\s;"]{1,70}))/i.exec(contentType)
  return match?.[1] ?? match?.[2]
}

/**
 * The text fields of a multipart body, last value winning as in parseBody; undefined when the
 * body holds anything this reader leaves to the full parser.
 */
export function simpleMultipart(
  body: Buffer,
  contentType: string,
): Record<string, string> | undefined {
  const boundary = boundaryOf(contentType)
  if (boundary === undefined) return undefined
  const delimiter = Buffer.from(`--${boundary}`)
  const fields: Record<string, string> = Object.create(null) as Record<string, string>
  // The preamble before the first delimiter is ignored, as the full parser does.
  let at = body.indexOf(delimiter)
  if (at < 0) return undefined
  for (;;) {
    at += delimiter.length
    // "--" after a delimiter closes the body.
    if (body[at] === 0x2d && body[at + 1] === 0x2d) return fields
    if (!body.subarray(at, at + 2).equals(CRLF)) return undefined
    at += 2
    const headersEnd = body.indexOf(HEADER_END, at)
    if (headersEnd < 0) return undefined
    const header = body.toString('latin1', at, headersEnd)
    // One header, the disposition with a plain name and no filename: a text field.
    const name = DISPOSITION.exec(header)?.[1]
    if (name === undefined || name.endsWith('[]')) return undefined
    const start = headersEnd + HEADER_END.length
    const next = body.indexOf(Buffer.concat([CRLF, delimiter]), start)
    if (next < 0) return undefined
    fields[name] = body.toString('utf8', start, next)
    at = next + CRLF.length
  }
}

/** The fields of a urlencoded body, last value winning; undefined for `name[]` lists. */
export function simpleUrlencoded(body: Buffer): Record<string, string> | undefined {
  const fields: Record<string, string> = Object.create(null) as Record<string, string>
  for (const [name, value] of new URLSearchParams(body.toString('utf8'))) {
    if (name.endsWith('[]')) return undefined
    fields[name] = value
  }
  return fields
}
