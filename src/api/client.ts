import type * as v from 'valibot'
import { t } from '@lingui/core/macro'
import { currentLocale } from '../i18n/locale'
import { settleEarlyReply, takeEarlyReply } from './early-replies'
import { ApiError } from './errors'
import { toFormData, type FormValue } from './form-data'
import { getToken, setToken } from './token'

/** Where the API lives; any backend that speaks `src/contract` will do. */
export const API_BASE: string = import.meta.env.VITE_API_BASE || '/api/'

type Query = Record<string, string | number | undefined | null>

/**
 * A reply's schema, or how to load it: the modules the first load needs import their schemas
 * this way, so that the schemas and valibot come with the first reply, not with the page.
 */
export type ReplySchema<S extends v.GenericSchema> = S | (() => Promise<S>)
type Body = Record<string, FormValue> | FormData

interface RequestOptions {
  /** Public data: sent without the token, so shared caches and the service worker may keep it. */
  anonymous?: boolean
  /** Adds local={language} (default); off for replies that are the same in every language. */
  localized?: boolean
  query?: Query
  body?: Body
  headers?: Record<string, string>
  signal?: AbortSignal
}

const hooks = {
  onUnauthorized: () => {},
  onForbidden: () => {},
}

/** The app says what a 401 and a 403 mean for it (clear the user's data, go to /403). */
export function configureApi(handlers: Partial<typeof hooks>): void {
  Object.assign(hooks, handlers)
}

export function apiUrl(path: string, query: Query = {}, localized = true): string {
  const url = new URL(API_BASE + path, window.location.origin)
  if (localized) url.searchParams.set('local', currentLocale())
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '')
      url.searchParams.set(key, String(value))
  }
  return url.toString()
}

function messageOf(body: unknown): string | undefined {
  if (body && typeof body === 'object') {
    const { message, msg } = body as { message?: unknown; msg?: unknown }
    if (typeof message === 'string' && message) return message
    if (typeof msg === 'string' && msg) return msg
  }
  return undefined
}

/**
 * Sends a call and answers its response when it is 2xx, read by `read`; otherwise throws the
 * ApiError. An early reply the call used (early-replies.ts) is settled once it has been read,
 * unless the call was cancelled meanwhile: the call made again then uses it too.
 */
async function send(
  method: string,
  path: string,
  { query, body, headers = {}, signal, anonymous = false, localized = true }: RequestOptions,
  accept: string,
  read: (response: Response) => Promise<unknown> = async () => {},
): Promise<Response> {
  const token = anonymous ? null : getToken()
  const init: RequestInit = {
    method,
    signal,
    headers: {
      Accept: accept,
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
      ...headers,
    },
  }
  if (body) init.body = body instanceof FormData ? body : toFormData(body)

  const url = apiUrl(path, query, localized)
  let response: Response
  // A public catalogue call the page's first script already made (early-replies.ts).
  const early =
    method === 'GET' && !token && !body && Object.keys(headers).length === 0
      ? takeEarlyReply(url, init)
      : undefined
  try {
    response = await (early ?? fetch(url, init))
  } catch (error) {
    if (signal?.aborted) throw error
    throw new ApiError(0, t`Error fetching data. Please check your connection and try again.`)
  }
  const payload = response.ok ? undefined : await response.json().catch(() => undefined)
  if (response.ok) await read(response)
  if (early && !signal?.aborted) settleEarlyReply(url)
  if (response.ok) return response

  if (response.status === 401) {
    setToken(null)
    hooks.onUnauthorized()
  } else if (response.status === 403) hooks.onForbidden()
  const errors =
    payload && typeof payload === 'object' && 'errors' in payload
      ? (payload.errors as Record<string, string[]>)
      : {}
  throw new ApiError(
    response.status,
    messageOf(payload) ?? t`Something went wrong. Please try again.`,
    errors,
  )
}

async function request<S extends v.GenericSchema>(
  method: string,
  path: string,
  schema: ReplySchema<S>,
  options: RequestOptions = {},
): Promise<v.InferOutput<S>> {
  // The check's code loads along with the call.
  const checking = Promise.all([
    import('./check-reply'),
    typeof schema === 'function' ? schema() : schema,
  ])
  checking.catch(() => {})
  let payload: unknown
  const response = await send(method, path, options, 'application/json', async (response) => {
    payload = await response.json().catch(() => undefined)
  })
  let loaded
  try {
    loaded = await checking
  } catch {
    // Offline before the service worker had the check's file.
    throw new ApiError(0, t`Error fetching data. Please check your connection and try again.`)
  }
  const [{ checkReply }, replySchema] = loaded
  const checked = checkReply(path, replySchema, payload)
  if (!checked.ok)
    throw new ApiError(response.status, t`The server sent a reply this app does not understand.`)
  return checked.output
}

export const api = {
  get: <S extends v.GenericSchema>(
    path: string,
    schema: ReplySchema<S>,
    options?: RequestOptions,
  ) => request('GET', path, schema, options),
  post: <S extends v.GenericSchema>(
    path: string,
    schema: ReplySchema<S>,
    options?: RequestOptions,
  ) => request('POST', path, schema, options),
  delete: <S extends v.GenericSchema>(
    path: string,
    schema: ReplySchema<S>,
    options?: RequestOptions,
  ) => request('DELETE', path, schema, options),
  /** A file the API serves to the signed-in user only (a receipt): fetched with the token. */
  blob: async (path: string, options?: RequestOptions) => {
    let blob: Blob | undefined
    await send('GET', path, { localized: false, ...options }, '*/*', async (response) => {
      blob = await response.blob()
    })
    return blob!
  },
}
