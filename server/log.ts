import { AsyncLocalStorage } from 'node:async_hooks'
import pino from 'pino'
import type { LogLevel } from './config'

type Fields = Record<string, unknown>

export interface Logger {
  debug(msg: string, fields?: Fields): void
  info(msg: string, fields?: Fields): void
  warn(msg: string, fields?: Fields): void
  error(msg: string, fields?: Fields): void
}

let stdoutDestination: pino.DestinationStream | undefined

/**
 * stdout through pino's asynchronous destination, one for the process: lines that come while
 * a write is under way go out together in the next (a busy server logs a line per request),
 * and what is left when the process exits is written then.
 */
function stdout(): pino.DestinationStream {
  if (!stdoutDestination) {
    const destination = pino.destination({ dest: 1, sync: false })
    process.once('exit', () => destination.flushSync())
    stdoutDestination = destination
  }
  return stdoutDestination
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
 * One JSON object per line (pino), on stdout or to `write`, so any log collector can parse it
 * without set-up: `time` (ISO), `level` (its name), `msg`, `requestId` when written for a
 * request, then the fields given.
 */
export function createLogger(level: LogLevel, write?: (line: string) => void): Logger {
  const log = pino(
    {
      level,
      base: undefined,
      messageKey: 'msg',
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      mixin: () => requestScope.getStore() ?? {},
    },
    write ? { write } : stdout(),
  )
  return {
    debug: (msg, fields) => log.debug(fields ?? {}, msg),
    info: (msg, fields) => log.info(fields ?? {}, msg),
    warn: (msg, fields) => log.warn(fields ?? {}, msg),
    error: (msg, fields) => log.error(fields ?? {}, msg),
  }
}

/** Errors do not survive JSON.stringify; this keeps what an operator needs. */
export function errorFields(err: unknown): Fields {
  if (err instanceof Error) {
    return { error: err.message, errorName: err.name, stack: err.stack }
  }
  return { error: String(err) }
}
