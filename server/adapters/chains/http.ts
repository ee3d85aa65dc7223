import * as v from 'valibot'
import { ChainError, type Network } from './types'

/** How much of an error body goes into the error message. */
const DETAIL_CHARS = 300

export interface JsonRequest {
  network: Network
  /** What is asked, for messages: a path or an RPC method, never a URL (it may hold a key). */
  what: string
  url: string
  method: 'GET' | 'POST'
  headers?: Record<string, string>
  body?: unknown
  timeoutMs: number
  fetch: typeof fetch
}

function failure(network: Network, what: string, err: unknown): ChainError {
  // AbortSignal.timeout aborts with a DOMException named TimeoutError, also mid-body.
  if (err instanceof Error && err.name === 'TimeoutError') {
    return new ChainError(network, 'timeout', `${what}: no answer in time`, { cause: err })
  }
  return new ChainError(network, 'unreachable', `${what}: the node could not be reached`, {
    cause: err,
  })
}

/** One HTTP exchange with a JSON answer; every failure is a ChainError, never a crash. */
export async function requestJson(req: JsonRequest): Promise<unknown> {
  const { network, what } = req
  let text: string
  let res: Response
  try {
    res = await req.fetch(req.url, {
      method: req.method,
      headers: {
        Accept: 'application/json',
        ...(req.body === undefined ? {} : { 'Content-Type': 'application/json' }),
        ...req.headers,
      },
      body: req.body === undefined ? undefined : JSON.stringify(req.body),
      signal: AbortSignal.timeout(req.timeoutMs),
    })
    text = await res.text()
  } catch (err) {
    throw failure(network, what, err)
  }
  if (!res.ok) {
    const detail = text.slice(0, DETAIL_CHARS).trim()
    throw new ChainError(
      network,
      'http',
      `${what}: HTTP ${res.status}${detail ? ` ${detail}` : ''}`,
      { status: res.status },
    )
  }
  try {
    return JSON.parse(text) as unknown
  } catch (err) {
    throw new ChainError(network, 'invalid-answer', `${what}: the answer is not JSON`, {
      cause: err,
    })
  }
}

/** Checks a reply against the shape its documentation gives. */
export function parseReply<S extends v.GenericSchema>(
  network: Network,
  what: string,
  schema: S,
  value: unknown,
): v.InferOutput<S> {
  const parsed = v.safeParse(schema, value)
  if (!parsed.success) {
    const issue = parsed.issues[0]
    const at = issue.path?.map((p) => String(p.key)).join('.') || 'reply'
    throw new ChainError(
      network,
      'invalid-answer',
      `${what}: unexpected answer (${at}: ${issue.message})`,
    )
  }
  return parsed.output
}

/** Integer strings of the APIs: decimal or 0x hex quantities, never through a float. */
export const decimalString = v.pipe(v.string(), v.regex(/^\d{1,78}$/, 'a decimal integer'))
export const hexQuantity = v.pipe(v.string(), v.regex(/^0x[0-9a-fA-F]{1,64}$/, 'a hex quantity'))
export const safeInteger = v.pipe(v.number(), v.safeInteger(), v.minValue(0))
