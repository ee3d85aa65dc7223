import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, statSync } from 'node:fs'
import { basename, dirname, join, resolve } from 'node:path'
import { sql } from 'kysely'
import { createDb, isPostgresUrl } from '../db'
import { auditWallets } from '../services/wallet-audit'
import { CommandError, type Command } from './command'

/**
 * The file a running server keeps beside its SQLite database, holding its process id (a dot
 * file, whose name does not start with the database's, as its own files' names do).
 */
export const pidFileOf = (sqlitePath: string) => {
  const path = resolve(sqlitePath)
  return join(dirname(path), `.${basename(path)}.pid`)
}

/** The id of a live server process on this SQLite file, or null. */
export function runningServer(sqlitePath: string): number | null {
  let pid: number
  try {
    pid = Number(readFileSync(pidFileOf(sqlitePath), 'utf8').trim())
  } catch {
    return null
  }
  if (!Number.isInteger(pid) || pid <= 0) return null
  try {
    process.kill(pid, 0)
    return pid
  } catch (err) {
    // EPERM: alive, someone else's. ESRCH: gone (a killed server leaves its file behind).
    return (err as NodeJS.ErrnoException).code === 'EPERM' ? pid : null
  }
}

interface CopyCheck {
  integrity: string
  audit: { ok: boolean; wallets: number; problems: number }
}

/** Opens a copy on its own and checks it: SQLite's integrity check, then wallet:audit. */
async function checkCopy(path: string): Promise<CopyCheck> {
  const copy = createDb({ databaseUrl: undefined, sqlitePath: path })
  try {
    const { rows } = await sql<{ integrity_check: string }>`pragma integrity_check`.execute(copy.db)
    const report = await auditWallets(copy.db)
    return {
      integrity: rows.map((r) => r.integrity_check).join('; '),
      audit: { ok: report.ok, wallets: report.wallets, problems: report.problems.length },
    }
  } finally {
    await copy.destroy()
  }
}

const passes = (check: CopyCheck) => check.integrity === 'ok' && check.audit.ok
const describe = (check: CopyCheck) =>
  `integrity ${check.integrity}; wallet:audit ${check.audit.ok ? 'OK' : `${check.audit.problems} problems`} (${check.audit.wallets} wallets)`

function sqliteOnly(databaseUrl: string | undefined) {
  if (isPostgresUrl(databaseUrl))
    throw new CommandError(
      'This store runs on PostgreSQL: back it up with pg_dump and restore it with pg_restore (README, Hosting).',
    )
}

export const backupCommands: Record<string, Command> = {
  backup: {
    summary:
      'Copy the SQLite database while the store runs (VACUUM INTO), check the copy (integrity, wallet:audit) and print its size.',
    usage: '<file>',
    positionals: ['file'],
    async run(ctx, { positionals: [file] }) {
      sqliteOnly(ctx.config.databaseUrl)
      const target = resolve(file!)
      if (existsSync(target)) throw new CommandError(`${target} exists: give a new file name.`)
      mkdirSync(dirname(target), { recursive: true })
      // One read transaction: a consistent copy, while the server goes on writing.
      await sql`vacuum into ${target}`.execute(ctx.db)
      const check = await checkCopy(target)
      const bytes = statSync(target).size
      return {
        json: { file: target, bytes, ...check },
        text: `${passes(check) ? 'Backed up' : 'The copy FAILED its checks'}: ${target}, ${bytes.toLocaleString('en')} bytes; ${describe(check)}.`,
        failed: !passes(check),
      }
    },
  },
  restore: {
    summary:
      'Put a backup in place of the SQLite database (SQLITE_PATH) after checking it, keeping the one before; refused while a server runs on it.',
    usage: '<file>',
    positionals: ['file'],
    ownDatabase: true,
    async run(ctx, { positionals: [file] }) {
      sqliteOnly(ctx.config.databaseUrl)
      const source = resolve(file!)
      const target = resolve(ctx.config.sqlitePath)
      if (!existsSync(source)) throw new CommandError(`${source} does not exist.`)
      const pid = runningServer(target)
      if (pid !== null)
        throw new CommandError(
          `A server (process ${pid}) is running on ${target}: stop it first, then restore.`,
        )
      const check = await checkCopy(source)
      if (!passes(check))
        throw new CommandError(
          `${source} is not a sound backup (${describe(check)}): nothing changed.`,
        )
      mkdirSync(dirname(target), { recursive: true })
      // The database before, with its write-ahead log, is moved aside, never deleted.
      const aside = existsSync(target) ? `${target}.before-restore-${Date.now()}` : null
      if (aside)
        for (const suffix of ['', '-wal', '-shm'])
          if (existsSync(target + suffix)) renameSync(target + suffix, aside + suffix)
      copyFileSync(source, target)
      return {
        json: { file: source, restored: target, kept: aside, ...check },
        text: `Restored ${source} into ${target}; ${describe(check)}.${aside ? ` The database before is kept as ${aside}.` : ''}`,
      }
    },
  },
}
