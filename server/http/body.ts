import type { Context, MiddlewareHandler } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { parseBody } from 'hono/utils/body'
import type * as v from 'valibot'
import { t } from '../i18n'
import { ApiError, parseFields, type FieldMessages } from '../core/errors'
import { simpleMultipart, simpleUrlencoded } from './form'
import type { AppEnv } from './env'
import { localeFromUrl } from './locale'
import { megabytes } from '../services/receipts'

/**
 * The fields of a form submission. The storefront sends multipart form data (docs/api.md,
 * Request bodies); urlencoded and JSON bodies are accepted too, for other clients and for
 * tests. Numbers are turned into text, so that `phone_number: 96170123456` in JSON validates
 * like the form field.
 */
export async function readFields(c: Context): Promise<Record<string, unknown>> {
  const contentType = c.req.header('content-type') ?? ''
  const type = contentType.toLowerCase()
  let fields: unknown
  try {
    const multipart = type.startsWith('multipart/form-data')
    if (multipart || type.startsWith('application/x-www-form-urlencoded')) {
      // The bytes as they came (the Node adapter reads them without a web stream), then the
      // plain text fields read from them; anything else in the form goes the full way.
      const body = Buffer.from(await c.req.arrayBuffer())
      fields =
        (multipart ? simpleMultipart(body, contentType) : simpleUrlencoded(body)) ??
        (await parseBody(
          new Request('http://form.invalid/', {
            method: 'POST',
            body,
            headers: { 'content-type': contentType },
          }),
        ))
    } else if (type.startsWith('application/json') || type.endsWith('+json')) {
      const text = await c.req.text()
      fields = text.trim() === '' ? {} : JSON.parse(text)
    } else {
      fields = {}
    }
  } catch (err) {
    throw new ApiError(400, 'errors.bad_request', undefined, { cause: err })
  }
  if (typeof fields !== 'object' || fields === null || Array.isArray(fields)) {
    throw new ApiError(400, 'errors.bad_request')
  }
  const entries = Object.entries(fields)
  // PostgreSQL cannot store or compare text with a NUL character; no field of ours has one.
  if (entries.some(([k, v]) => k.includes('\0') || (typeof v === 'string' && v.includes('\0'))))
    throw new ApiError(422, 'errors.nul_character')
  return Object.fromEntries(entries.map(([k, v]) => [k, typeof v === 'number' ? String(v) : v]))
}

/**
 * For form posts that carry a few short fields: anything far bigger is not one of ours. A
 * body that says its length is judged by it (Node's parser reads no more than that); only a
 * chunked one is counted as it streams in.
 */
export function formBodyLimit(maxSize = 64 * 1024): MiddlewareHandler {
  const tooLarge = (c: Context) =>
    c.json({ message: t(localeFromUrl(c.req.url), 'errors.payload_too_large') }, 413)
  const streamed = bodyLimit({ maxSize, onError: tooLarge })
  return async (c, next) => {
    const length = c.req.header('content-length')
    if (length === undefined || c.req.header('transfer-encoding') !== undefined)
      return streamed(c, next)
    if (Number(length) > maxSize) return tooLarge(c)
    await next()
  }
}

/**
 * A photo (a receipt, a slider's picture) and a few fields: a body beyond the photo's limit
 * (RECEIPT_MAX_BYTES) is refused in the photo's words before it is read whole.
 */
export const photoBodyLimit: MiddlewareHandler<AppEnv> = (c, next) =>
  bodyLimit({
    maxSize: c.var.config.receipts.maxBytes + 64 * 1024,
    onError: (ctx) =>
      ctx.json(
        {
          message: t(c.var.locale, 'charging.receipt.too_large', {
            max: megabytes(c.var.config.receipts.maxBytes),
          }),
        },
        413,
      ),
  })(c, next)

/**
 * The validator of a call's form: reads the body (readFields) with the schema of its entry in
 * the contract (src/contract/endpoints.ts), answering 422 in the caller's language for what
 * breaks it; the handler takes what was read from `c.req.valid('form')`.
 */
export function validForm<S extends v.GenericSchema<unknown, object>>(
  schema: S,
  fields: Record<string, FieldMessages>,
): MiddlewareHandler<AppEnv, string, { out: { form: v.InferOutput<S> } }> {
  return async (c, next) => {
    c.req.addValidatedData('form', parseFields(schema, await readFields(c), fields))
    await next()
  }
}
