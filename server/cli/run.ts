import { randomUUID } from 'node:crypto'
import { userInfo } from 'node:os'
import { parseArgs, type ParseArgsOptionsConfig } from 'node:util'
import { systemClock, type Clock } from '../clock'
import { ConfigError, loadConfig, type Config } from '../config'
import type { Kysely } from 'kysely'
import { createDb, type Db } from '../db'
import type { Database } from '../db/schema'
import { migrateToLatest } from '../db/migrations'
import { createLogger, requestScope } from '../log'
import { PasswordHasher, scryptWithCost } from '../services/passwords'
import { CommandError, UsageError, type Command, type CommandResult } from './command'
import { accountCommands } from './accounts'
import { catalogueCommands } from './catalogue'
import { chargeCommands } from './charges'
import { promoCommands } from './promo'
import { settingsCommands } from './settings'
import { paymentCommands } from './payments'
import { orderCommands } from './orders'
import { userCommands } from './users'
import { operatorCommands } from './operators'
import { walletCommands } from './wallet'
import { backupCommands } from './backup'
import { stockCommands } from './stock'
import { upstreamCommands } from './upstream'

/** Every operator command, by name. Add an area's table here. */
export const COMMANDS: Record<string, Command> = {
  ...userCommands,
  ...operatorCommands,
  ...accountCommands,
  ...catalogueCommands,
  ...orderCommands,
  ...stockCommands,
  ...upstreamCommands,
  ...walletCommands,
  ...chargeCommands,
  ...promoCommands,
  ...settingsCommands,
  ...paymentCommands,
  ...backupCommands,
}

const GLOBAL_OPTIONS: ParseArgsOptionsConfig = {
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
}

export interface CliIo {
  stdout(text: string): void
  stderr(text: string): void
  /** Settings; default process.env. */
  env?: Record<string, string | undefined>
  /** An open database to use instead of opening one from the settings (tests). */
  store?: Pick<Db, 'db' | 'dialect'>
  passwords?: PasswordHasher
  clock?: Clock
  /** Standard input; default the process's. */
  readStdin?: () => Promise<string>
}

/** Who is running the command: OPERATOR when set, else the system user, for the audit log. */
function actorOf(env: Record<string, string | undefined>): string {
  const named = env.OPERATOR?.trim()
  if (named) return named.slice(0, 100)
  try {
    return userInfo().username || 'operator'
  } catch {
    // No user database entry (some containers run as a bare uid).
    return 'operator'
  }
}

async function readProcessStdin(): Promise<string> {
  let text = ''
  for await (const chunk of process.stdin) text += String(chunk)
  return text
}

function help(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((n) => n.length))
  const lines = Object.entries(COMMANDS).map(
    ([name, cmd]) => `  ${name.padEnd(width)}  ${cmd.summary}`,
  )
  return [
    'Usage: npm run -s operator -- <command> [arguments] [--json]',
    '',
    'Commands:',
    ...lines,
    '',
    'Every command takes --json for machine-readable output, and --help for its usage.',
    "The database is the server's: DATABASE_URL or SQLITE_PATH from the environment or .env.",
  ].join('\n')
}

const usageOf = (name: string, cmd: Command) =>
  `Usage: npm run -s operator -- ${name} ${cmd.usage}`.trimEnd()

/**
 * Runs one operator command and returns the exit code: 0 done, 1 failed (the message says
 * why), 2 the command line was wrong.
 */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv
  if (name === undefined || name === 'help' || name === '--help' || name === '-h') {
    ;(name === undefined ? io.stderr : io.stdout)(help() + '\n')
    return name === undefined ? 2 : 0
  }
  // Own keys only: `constructor` or `__proto__` are properties of every object, not commands.
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined
  const wantsJson = rest.includes('--json')
  const fail = (code: number, message: string, details?: unknown) => {
    io.stderr(
      wantsJson
        ? JSON.stringify({ error: message, ...(details ? { errors: details } : {}) }) + '\n'
        : `${message}\n`,
    )
    return code
  }
  if (!command) return fail(2, `Unknown command: ${name}\n\n${help()}`)

  let parsed
  try {
    parsed = parseArgs({
      args: rest,
      options: { ...GLOBAL_OPTIONS, ...command.options },
      allowPositionals: true,
      strict: true,
    })
  } catch (err) {
    return fail(2, `${(err as Error).message}\n${usageOf(name, command)}`)
  }
  if (parsed.values.help) {
    io.stdout(`${command.summary}\n${usageOf(name, command)}\n`)
    return 0
  }
  const expected = command.positionals ?? []
  const optional = command.optionalPositionals ?? []
  const given = parsed.positionals.length
  if (given < expected.length || given > expected.length + optional.length) {
    const message =
      expected.length + optional.length === 0
        ? `${name} takes no positional arguments`
        : `${name} needs ${[...expected.map((p) => `<${p}>`), ...optional.map((p) => `[${p}]`)].join(' ')}`
    return fail(2, `${message}\n${usageOf(name, command)}`)
  }

  let opened: Db | undefined
  try {
    let config: Config
    try {
      config = loadConfig(io.env ?? process.env)
    } catch (err) {
      if (err instanceof ConfigError) return fail(1, `${err.message}\nSee .env.example.`)
      throw err
    }
    let store = io.store
    if (!store && !command.ownDatabase) {
      opened = createDb(
        config,
        createLogger('warn', (line) => io.stderr(line)),
      )
      await migrateToLatest(opened.db, opened.dialect)
      store = opened
    }
    // The command's id, as a request's: on its log lines and on the rows it makes (audit,
    // outbox, push jobs), so a row is traced back to the command that made it.
    const result: CommandResult = await requestScope.run({ requestId: randomUUID() }, () =>
      command.run(
        {
          // (A command with its own database gets none: see Command.ownDatabase.)
          db: store?.db as Kysely<Database>,
          config,
          passwords: io.passwords ?? new PasswordHasher(scryptWithCost(config.passwordHashCost)),
          clock: io.clock ?? systemClock,
          actor: actorOf(io.env ?? process.env),
          readStdin: io.readStdin ?? readProcessStdin,
        },
        { values: parsed.values, positionals: parsed.positionals },
      ),
    )
    io.stdout(wantsJson ? JSON.stringify(result.json, null, 2) + '\n' : result.text + '\n')
    return result.failed ? 1 : 0
  } catch (err) {
    if (err instanceof UsageError) return fail(2, `${err.message}\n${usageOf(name, command)}`)
    if (err instanceof CommandError) return fail(1, err.message, err.details)
    return fail(1, `${name} failed: ${err instanceof Error ? err.message : String(err)}`)
  } finally {
    await opened?.destroy()
  }
}
