import type { UserRow } from '../db/schema'
import { findUserByUsername } from '../services/users'
import type { ParseArgsOptionsConfig } from 'node:util'
import type { Kysely } from 'kysely'
import type { Clock } from '../clock'
import type { Config } from '../config'
import type { Database } from '../db/schema'
import type { PasswordHasher } from '../services/passwords'
import { dayOf } from '../services/dates'

/** What a command works with: the migrated database and the server's configuration. */
export interface CliContext {
  db: Kysely<Database>
  config: Config
  passwords: PasswordHasher
  clock: Clock
  /** Who runs the command, for the audit log: OPERATOR, else the system user name. */
  actor: string
  /** Everything on standard input (users:set-password --password-stdin). */
  readStdin(): Promise<string>
}

export interface CommandArgs {
  values: Record<string, string | boolean | (string | boolean)[] | undefined>
  positionals: string[]
}

/** `json` is printed with --json, `text` otherwise; `failed` makes the exit code 1. */
export interface CommandResult {
  json: unknown
  text: string
  /** The command ran and found a problem (wallet:audit): printed as usual, exit 1. */
  failed?: boolean
}

/**
 * One operator command. Later areas add theirs (catalogue:*, orders:*, wallet:credit) in a
 * module of their own and list it in cli/run.ts.
 */
export interface Command {
  summary: string
  /** Arguments after the command name, e.g. `<username> <COMPANY|CUSTOMER>`. */
  usage: string
  /** Its --options (all strings or booleans; --json and --help are added for every command). */
  options?: ParseArgsOptionsConfig
  /** Names of the positional arguments; exactly these many are required. */
  positionals?: string[]
  /** Names of the positional arguments that may follow those, in order. */
  optionalPositionals?: string[]
  /**
   * The command handles the database file itself (restore): it is not opened nor migrated
   * first, and `ctx.db` must not be used.
   */
  ownDatabase?: boolean
  run(ctx: CliContext, args: CommandArgs): Promise<CommandResult>
}

/** The command line was wrong: exit 2 and show the usage. */
export class UsageError extends Error {
  override name = 'UsageError'
}

/** The command could not do what was asked (unknown user, taken name): exit 1. */
export class CommandError extends Error {
  override name = 'CommandError'
  constructor(
    message: string,
    readonly details?: Record<string, string[]>,
  ) {
    super(message)
  }
}

/** A required --option's value, or a UsageError naming it. */
export function required(args: CommandArgs, name: string): string {
  const value = args.values[name]
  if (typeof value !== 'string' || value.trim() === '')
    throw new UsageError(`--${name} is required`)
  return value
}

/** An optional --option that must be one of `choices` (case-insensitive). */
export function choice<T extends string>(
  args: CommandArgs,
  name: string,
  choices: readonly T[],
  fallback: T,
): T {
  const value = args.values[name]
  if (value === undefined) return fallback
  const upper = String(value).toUpperCase()
  const found = choices.find((c) => c === upper)
  if (!found) throw new UsageError(`--${name} must be one of ${choices.join(', ')}`)
  return found
}

/** The most rows a list command prints. */
export const LIST_LIMIT = 200

/** A positional number (an order's, a top-up's...): 1 or more, or a UsageError. */
export function idArgument(text: string, what: string): number {
  if (!/^[1-9]\d{0,14}$/.test(text)) throw new UsageError(`<id> must be ${what}`)
  return Number(text)
}

/**
 * `<id> --reason TEXT`: a command that refuses or cancels something (`orders:cancel`,
 * `charges:reject`), with the reason its owner is told; `what` names the id (`an order number`).
 */
export function reasonCommand(spec: {
  summary: string
  what: string
  run(ctx: CliContext, id: number, reason: string): Promise<CommandResult>
}): Command {
  return {
    summary: spec.summary,
    usage: '<id> --reason TEXT',
    positionals: ['id'],
    options: { reason: { type: 'string' } },
    run: (ctx, args) =>
      spec.run(ctx, idArgument(args.positionals[0]!, spec.what), required(args, 'reason').trim()),
  }
}

/** What a list command is filtered by: --user and --status, each when given. */
export interface ListFilters<S extends string> {
  status?: S
  userId?: number
}

/**
 * A list command (`orders:list`, `charges:list`, `payments:list`): --user and --status (one
 * of `statuses`, any case), newest first, at most LIST_LIMIT rows read by `list` (a
 * service's), shown as JSON or as a table of each row's `brief`.
 */
export function listCommand<S extends string, R>(spec: {
  /** What is listed, for the summary: `orders`. */
  what: string
  statuses: readonly S[]
  /** Further options, read by `list` itself. */
  more?: { usage: string; options: ParseArgsOptionsConfig }
  empty: string
  list(ctx: CliContext, filters: ListFilters<S>, args: CommandArgs): Promise<R[]>
  brief(row: R): Record<string, unknown>
}): Command {
  return {
    summary: `List ${spec.what}, newest first (at most ${LIST_LIMIT}).`,
    usage: [
      `[--user <username>] [--status ${spec.statuses.join('|')}]`,
      ...(spec.more ? [spec.more.usage] : []),
    ].join(' '),
    options: { user: { type: 'string' }, status: { type: 'string' }, ...spec.more?.options },
    async run(ctx, args) {
      const status =
        args.values.status === undefined
          ? undefined
          : choice(args, 'status', spec.statuses, spec.statuses[0]!)
      const userId = await userOption(ctx, args)
      const rows = await spec.list(
        ctx,
        { ...(status && { status }), ...(userId !== undefined && { userId }) },
        args,
      )
      return { json: rows, text: table(rows.map(spec.brief), spec.empty) }
    },
  }
}

/** The account of a username the operator typed, or an error that names it. */
export async function userNamed(ctx: Pick<CliContext, 'db'>, username: string): Promise<UserRow> {
  const user = await findUserByUsername(ctx.db, username)
  if (!user) throw new CommandError(`No user named ${username}.`)
  return user
}

/** The id of the `--user` a list is filtered by, if any. */
export async function userOption(ctx: Pick<CliContext, 'db'>, args: CommandArgs) {
  const name = args.values.user
  return typeof name === 'string' ? (await userNamed(ctx, name)).id : undefined
}

/** An optional --option naming a real day (YYYY-MM-DD, years 2000 to 2999), or null. */
export function dayOption(args: CommandArgs, name: string): string | null {
  const value = args.values[name]
  if (value === undefined) return null
  const text = String(value).trim()
  if (dayOf(text) !== text) throw new UsageError(`--${name} must be a date like 2027-01-31`)
  return text
}

/** Rows as aligned text columns, for the terminal. */
export function table(rows: Record<string, unknown>[], empty: string): string {
  if (rows.length === 0) return empty
  const keys = Object.keys(rows[0]!)
  const cells = rows.map((r) => keys.map((k) => String(r[k] ?? '')))
  const widths = keys.map((k, i) => Math.max(k.length, ...cells.map((c) => c[i]!.length)))
  const line = (values: string[]) =>
    values
      .map((s, i) => s.padEnd(widths[i]!))
      .join('  ')
      .trimEnd()
  return [line(keys), ...cells.map(line)].join('\n')
}
