import type { Context } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { t } from '../i18n'
import { ApiError } from './errors'
import { localeFromUrl } from './locale'

/**
 * The fields of a form submission. The storefront sends multipart form data (docs/api.md,
 * Request bodies); urlencoded and JSON bodies are accepted too, for other clients and for
 * tests. Numbers are turned into text, so that `phone_number: 96170123456` in JSON validates
 * like the form field.
 */
export async function readFields(c: Context): Promise<Record<string, unknown>> {
  const type = (c.req.header('content-type') ?? '').toLowerCase()
  let fields: unknown
  try {
    if (
      type.startsWith('multipart/form-data') ||
      type.startsWith('application/x-www-form-urlencoded')
    ) {
      fields = await c.req.parseBody()
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
  return Object.fromEntries(
    Object.entries(fields).map(([k, v]) => [k, typeof v === 'number' ? String(v) : v]),
  )
}

/** For form posts that carry a few short fields: anything far bigger is not one of ours. */
export function formBodyLimit(maxSize = 64 * 1024) {
  return bodyLimit({
    maxSize,
    onError: (c) =>
      c.json({ message: t(localeFromUrl(c.req.url), 'errors.payload_too_large') }, 413),
  })
}
