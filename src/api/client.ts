import type * as v from 'valibot'
import { t } from '@lingui/core/macro'
import { currentLocale } from '../i18n/locale'
import { settleEarlyReply, takeEarlyReply } from './early-replies'
import { ApiError } from './errors'
import { toFormData, type FormValue } from './form-data'
import { getToken, setToken } from './token'
import type { Endpoints } from '../contract/endpoints'

/** Where the API lives; any backend that speaks `src/contract` will do. */
export const API_BASE: string = import.meta.env.VITE_API_BASE || '/api/'

type Query = Record<string, string | number | undefined | null>

/**
 * A reply's schema, or how to load it: the modules the first load needs import their schemas
 * this way, so that the schemas and valibot come with the first reply, not with the page.
 */
export type ReplySchema<S extends v.GenericSchema> = S | (() => Promise<S>)

type Method = Endpoints[keyof Endpoints]['method']
/** A path as a call writes it: the table's without its leading slash, a parameter any text. */
type Written<P extends string> = P extends `${infer Head}:${string}/${infer Tail}`
  ? `${Head}${string}/${Written<Tail>}`
  : P extends `${infer Head}:${string}`
    ? `${Head}${string}`
    : P
/** The contract's endpoints (src/contract/endpoints.ts) a call of `method` to `path` may be. */
type EndpointAt<M extends Method, P extends string> = {
  [K in keyof Endpoints]: Endpoints[K] extends { method: M; path: `/${infer Path}` }
    ? P extends Written<Path>
      ? Endpoints[K]
      : never
    : never
}[keyof Endpoints]
/** Every path the contract has for `method`, as calls write them. */
type PathOf<M extends Method> = {
  [K in keyof Endpoints]: Endpoints[K] extends { method: M; path: `/${infer Path}` }
    ? Written<Path>
    : never
}[keyof Endpoints]
type ReplyAt<M extends Method, P extends string> = Extract<
  EndpointAt<M, P>['reply'],
  v.GenericSchema
>
/** A form with the names of a contract body, each a form value as toFormData sends it. */
export type FormBody<T> = Partial<Record<keyof T, FormValue>>
/** The form a call sends: the names its contract body has, or FormData. */
type BodyAt<M extends Method, P extends string> =
  EndpointAt<M, P> extends { body: infer S extends v.GenericSchema }
    ? FormBody<v.InferInput<S>> | FormData
    : never

type Body = Record<string, FormValue> | FormData

interface RequestOptions<B = Body> {
  /** Public data: sent without the token, so shared caches and the service worker may keep it. */
  anonymous?: boolean
  /**
   * The operator console's calls (docs/api.md, Console): never the customer's token (the
   * console's session is its own cookie), and a 401 or 403 is the console's, not the customer's.
   */
  console?: boolean
  /** Adds local={language} (default); off for replies that are the same in every language. */
  localized?: boolean
  query?: Query
  body?: B
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
 * Sends a call and answers its response when it is 2xx, read (and checked) by `read`; otherwise
 * throws the ApiError. An early reply the call used (early-replies.ts) is settled once `read`
 * is done, unless the call was cancelled meanwhile, at any step (a reply's check may load
 * after the reply on a slow phone): the call made again then uses it too.
 */
async function send(
  method: string,
  path: string,
  {
    query,
    body,
    headers = {},
    signal,
    anonymous = false,
    console: forConsole = false,
    localized = true,
  }: RequestOptions,
  accept: string,
  read: (response: Response) => Promise<unknown> = async () => {},
): Promise<Response> {
  const token = anonymous || forConsole ? null : getToken()
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
  // A call the page's first script already made (early-replies.ts).
  const early =
    method === 'GET' && !forConsole && !body && Object.keys(headers).length === 0
      ? takeEarlyReply(url, init, token)
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

  if (forConsole) {
    // The console's own session: the customer's stays as it is.
  } else if (response.status === 401) {
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
  let output: v.InferOutput<S>
  // Read and checked before the call is done: an early reply is settled only then (send).
  await send(method, path, options, 'application/json', async (response) => {
    const payload = await response.json().catch(() => undefined)
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
    output = checked.output
  })
  return output!
}

/** Calls typed by the contract: the path must be one of its endpoints, the schema its reply. */
const call =
  <M extends Method>(method: M) =>
  <P extends PathOf<M>, S extends ReplyAt<M, P>>(
    path: P,
    schema: ReplySchema<S>,
    options?: RequestOptions<BodyAt<M, P>>,
  ) =>
    request(method, path, schema, options)

export const api = {
  get: call('GET'),
  post: call('POST'),
  delete: call('DELETE'),
  /** A file the API serves to the signed-in user only (a receipt): fetched with the token. */
  blob: async (path: string, options?: RequestOptions) => {
    let blob: Blob | undefined
    await send('GET', path, { localized: false, ...options }, '*/*', async (response) => {
      blob = await response.blob()
    })
    return blob!
  },
}
