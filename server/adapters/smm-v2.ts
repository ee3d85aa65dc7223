import * as v from 'valibot'

/*
 * A client of another panel's SMM panel API v2 (docs/api.md, Upstream panels), as the panels'
 * own clients call it: every call a form post (application/x-www-form-urlencoded) of `key`,
 * `action` and the action's fields to the API's one address, the reply JSON. An error is
 * `{"error": "..."}`, with 200 or with a 4xx. Panels are loose with types (an order id or a
 * remains as a number or a string), so replies are read leniently and turned into text.
 *
 * What matters for an order is whether the panel may have taken it: `V2Unreached` means the
 * request never left (no connection), so sending it again is safe; any other failure (a
 * timeout, a cut connection, a 5xx, a reply that is not JSON) is `V2Unknown`: the order may
 * exist at the panel, and v2 has no idempotency key to send it again safely.
 */

export interface V2Panel {
  url: string
  key: string
}

export interface V2ClientOptions {
  timeoutMs: number
  fetch?: typeof fetch
}

/** The request was not sent: nothing can have happened at the panel. */
export class V2Unreached extends Error {
  override name = 'V2Unreached'
}

/** The request may have reached the panel, but no usable answer came back. */
export class V2Unknown extends Error {
  override name = 'V2Unknown'
}

/** The panel answered with `{"error"}`: it refused. */
export class V2Refused extends Error {
  override name = 'V2Refused'
}

/** Connection errors that happen before a byte of the request is written. */
const NOT_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH'])

function errorCode(err: unknown): string | undefined {
  for (let e = err as { code?: unknown; cause?: unknown } | undefined; e; e = e.cause as never) {
    if (typeof e.code === 'string') return e.code
    if (typeof e !== 'object') break
  }
  return undefined
}

const Text = v.pipe(
  v.union([v.string(), v.number()]),
  v.transform((x) => String(x)),
)
const ErrorReply = v.object({ error: Text })
const AddReply = v.object({ order: v.pipe(Text, v.regex(/^\w{1,64}$/)) })
const StatusReply = v.object({
  status: Text,
  charge: v.nullish(Text),
  start_count: v.nullish(Text),
  remains: v.nullish(Text),
  currency: v.nullish(Text),
})
const BalanceReply = v.object({ balance: Text, currency: v.nullish(Text) })
const ServicesReply = v.array(
  v.looseObject({
    service: Text,
    name: v.nullish(Text),
    type: v.nullish(Text),
    category: v.nullish(Text),
    rate: v.nullish(Text),
    min: v.nullish(Text),
    max: v.nullish(Text),
  }),
)

export type V2Status = v.InferOutput<typeof StatusReply>
export type V2ServiceInfo = v.InferOutput<typeof ServicesReply>[number]

export interface V2Client {
  /** action=add: the panel's order id; V2Refused, V2Unreached or V2Unknown otherwise. */
  add(fields: Record<string, string>): Promise<string>
  /** action=status&orders=…: each id as sent, its status or the panel's error for it. */
  status(ids: string[]): Promise<Map<string, V2Status | { error: string }>>
  services(): Promise<V2ServiceInfo[]>
  balance(): Promise<{ balance: string; currency: string | null }>
}

export function createV2Client(panel: V2Panel, options: V2ClientOptions): V2Client {
  const fetchImpl = options.fetch ?? fetch

  async function call(action: string, fields: Record<string, string> = {}): Promise<unknown> {
    let res: Response
    try {
      res = await fetchImpl(panel.url, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/x-www-form-urlencoded',
          Accept: 'application/json',
        },
        body: new URLSearchParams({ key: panel.key, action, ...fields }).toString(),
        signal: AbortSignal.timeout(options.timeoutMs),
      })
    } catch (err) {
      const code = errorCode(err)
      if (code && NOT_SENT.has(code))
        throw new V2Unreached(`the panel could not be reached (${code})`, { cause: err })
      const timedOut = err instanceof DOMException && err.name === 'TimeoutError'
      throw new V2Unknown(
        timedOut
          ? `no answer within ${options.timeoutMs} ms`
          : `the connection failed (${code ?? (err as Error).message})`,
        { cause: err },
      )
    }
    let body: unknown
    try {
      body = await res.json()
    } catch (err) {
      throw new V2Unknown(`HTTP ${res.status} without a JSON reply`, { cause: err })
    }
    const error = v.safeParse(ErrorReply, body)
    // Panels answer errors with 200 or a 4xx; a 5xx says nothing certain about the order.
    if (error.success && res.status < 500) throw new V2Refused(error.output.error)
    if (!res.ok) throw new V2Unknown(`HTTP ${res.status}`)
    return body
  }

  function parsed<S extends v.GenericSchema>(schema: S, body: unknown, what: string) {
    const result = v.safeParse(schema, body)
    if (!result.success) throw new V2Unknown(`the panel's ${what} reply was not understood`)
    return result.output as v.InferOutput<S>
  }

  return {
    async add(fields) {
      return parsed(AddReply, await call('add', fields), 'add').order
    },
    async status(ids) {
      const body = await call('status', { orders: ids.join(',') })
      const answers = new Map<string, V2Status | { error: string }>()
      if (typeof body !== 'object' || body === null) return answers
      for (const id of ids) {
        const one: unknown = (body as Record<string, unknown>)[id]
        const status = v.safeParse(StatusReply, one)
        if (status.success) answers.set(id, status.output)
        else {
          const error = v.safeParse(ErrorReply, one)
          if (error.success) answers.set(id, error.output)
        }
      }
      return answers
    },
    async services() {
      return parsed(ServicesReply, await call('services'), 'services')
    },
    async balance() {
      const reply = parsed(BalanceReply, await call('balance'), 'balance')
      return { balance: reply.balance, currency: reply.currency ?? null }
    },
  }
}
