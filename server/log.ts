import { AsyncLocalStorage } from 'node:async_hooks'
import { LOG_LEVELS, type LogLevel } from './config'

type Fields = Record<string, unknown>

export interface Logger {
  debug(msg: string, fields?: Fields): void
  info(msg: string, fields?: Fields): void
  warn(msg: string, fields?: Fields): void
  error(msg: string, fields?: Fields): void
}

const rank = (level: LogLevel) => LOG_LEVELS.indexOf(level)

let queued: string[] = []
let scheduled = false
let exitHooked = false

function flush() {
  scheduled = false
  if (queued.length === 0) return
  const text = queued.join('')
  queued = []
  process.stdout.write(text)
}

/**
 * Lines go out together once per turn of the event loop (a busy server writes one request
 * line per request; one write for many is far cheaper), and whatever is left when the
 * process exits is written then.
 */
function stdout(line: string) {
  queued.push(line)
  if (scheduled) return
  if (!exitHooked) {
    exitHooked = true
    process.once('exit', flush)
  }
  scheduled = true
  setImmediate(flush)
}

/**
 * The request a piece of work is for: set around each request's handlers (app.ts), and kept
 * by whatever they start (a code's delivery, an order's hand-over, a background write), so
 * every line they log carries the request's id, the one its reply gave as X-Request-Id.
 */
export const requestScope = new AsyncLocalStorage<{ requestId: string }>()

/** The id of the request (or operator command) this work is for, kept on the rows it makes. */
export const currentRequestId = (): string | null => requestScope.getStore()?.requestId ?? null

/**
 * One JSON object per line on stdout, so any log collector can parse it without set-up; with
 * `requestId` when written for a request.
 */
export function createLogger(level: LogLevel, write: (line: string) => void = stdout): Logger {
  const emit = (at: Exclude<LogLevel, 'silent'>, msg: string, fields?: Fields) => {
    if (rank(at) < rank(level)) return
    const scope = requestScope.getStore()
    const line = { time: new Date().toISOString(), level: at, msg, ...scope, ...fields }
    write(JSON.stringify(line) + '\n')
  }
  return {
    debug: (msg, fields) => emit('debug', msg, fields),
    info: (msg, fields) => emit('info', msg, fields),
    warn: (msg, fields) => emit('warn', msg, fields),
    error: (msg, fields) => emit('error', msg, fields),
  }
}

/** Errors do not survive JSON.stringify; this keeps what an operator needs. */
export function errorFields(err: unknown): Fields {
  if (err instanceof Error) {
    return { error: err.message, errorName: err.name, stack: err.stack }
  }
  return { error: String(err) }
}
