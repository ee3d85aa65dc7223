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

/** One JSON object per line on stdout, so any log collector can parse it without set-up. */
export function createLogger(level: LogLevel, write: (line: string) => void = stdout): Logger {
  const emit = (at: Exclude<LogLevel, 'silent'>, msg: string, fields?: Fields) => {
    if (rank(at) < rank(level)) return
    write(JSON.stringify({ time: new Date().toISOString(), level: at, msg, ...fields }) + '\n')
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
