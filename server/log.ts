import { LOG_LEVELS, type LogLevel } from './config'

type Fields = Record<string, unknown>

export interface Logger {
  debug(msg: string, fields?: Fields): void
  info(msg: string, fields?: Fields): void
  warn(msg: string, fields?: Fields): void
  error(msg: string, fields?: Fields): void
}

const rank = (level: LogLevel) => LOG_LEVELS.indexOf(level)

/** One JSON object per line on stdout, so any log collector can parse it without set-up. */
export function createLogger(
  level: LogLevel,
  write: (line: string) => void = (line) => process.stdout.write(line),
): Logger {
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
