import { createServer, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Logger } from '../../log'

/*
 * Test helpers: a real HTTP server on a free local port, so the watchers go through fetch,
 * status codes, bodies and timeouts exactly as they would against TronGrid or a BSC node.
 */

export interface FakeRequest {
  method: string
  path: string
  query: URLSearchParams
  headers: IncomingHttpHeaders
  body: unknown
}

/** A JSON body, a raw text body, or 'hang': never answer, so the client's timeout fires. */
export type FakeAnswer = { status?: number; json?: unknown; text?: string } | 'hang'

export interface FakeNode {
  url: string
  requests: FakeRequest[]
  close(): Promise<void>
}

export async function startFakeNode(
  answer: (req: FakeRequest) => FakeAnswer | Promise<FakeAnswer>,
): Promise<FakeNode> {
  const requests: FakeRequest[] = []
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    const raw = Buffer.concat(chunks).toString()
    const url = new URL(req.url ?? '/', 'http://fake.invalid')
    let body: unknown
    try {
      body = raw ? JSON.parse(raw) : undefined
    } catch {
      body = raw
    }
    const request = {
      method: req.method ?? 'GET',
      path: url.pathname,
      query: url.searchParams,
      headers: req.headers,
      body,
    }
    requests.push(request)
    let reply: FakeAnswer
    try {
      reply = await answer(request)
    } catch (err) {
      reply = { status: 500, text: `fake node failed: ${String(err)}` }
    }
    if (reply === 'hang') return
    const isJson = reply.json !== undefined
    res.writeHead(reply.status ?? 200, {
      'content-type': isJson ? 'application/json' : 'text/plain',
    })
    res.end(isJson ? JSON.stringify(reply.json) : (reply.text ?? ''))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        // Also ends the requests left hanging on purpose.
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

export interface LogLine {
  level: 'debug' | 'info' | 'warn' | 'error'
  msg: string
  fields: Record<string, unknown> | undefined
}

export function recordingLogger(): { logger: Logger; lines: LogLine[] } {
  const lines: LogLine[] = []
  const at = (level: LogLine['level']) => (msg: string, fields?: Record<string, unknown>) =>
    lines.push({ level, msg, fields })
  return {
    logger: { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') },
    lines,
  }
}
