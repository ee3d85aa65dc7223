import { randomBytes } from 'node:crypto'
import * as v from 'valibot'
import { PasswordSchema } from '../../src/contract/auth'
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../src/contract/constants'
import { forgetIdentityFailures } from '../services/attempts'
import { listAudit, recordAudit } from '../services/audit'
import {
  disableAccount,
  enableAccount,
  endSessions,
  revokeAccountSessions,
} from '../services/customers'
import { table, UsageError, userNamed, userOption, type Command } from './command'

/** Generated passwords: 144 random bits, in characters that survive any terminal. */
const generatePassword = () => randomBytes(18).toString('base64url')

export const accountCommands: Record<string, Command> = {
  'users:disable': {
    summary: 'Switch an account off: no sign-in, every session ends. Its data stays.',
    usage: '<username> [--reason TEXT]',
    positionals: ['username'],
    options: { reason: { type: 'string' } },
    async run(ctx, args) {
      const [username] = args.positionals as [string]
      const reason = typeof args.values.reason === 'string' ? args.values.reason.trim() : ''
      const user = await userNamed(ctx, username)
      const result = await disableAccount(ctx.db, user, {
        actor: ctx.actor,
        reason,
        now: ctx.clock.now(),
      })
      return {
        json: {
          username: user.username,
          disabled: true,
          was_disabled: !result.changed,
          sessions_revoked: result.sessions,
        },
        text: result.changed
          ? `Disabled ${user.username}; ${result.sessions} session(s) ended.`
          : `${user.username} was already disabled; ${result.sessions} session(s) ended.`,
      }
    },
  },

  'users:enable': {
    summary: 'Switch a disabled account back on (it signs in again with its password).',
    usage: '<username>',
    positionals: ['username'],
    async run(ctx, args) {
      const [username] = args.positionals as [string]
      const user = await userNamed(ctx, username)
      const changed = await enableAccount(ctx.db, user, { actor: ctx.actor, now: ctx.clock.now() })
      return {
        json: { username: user.username, disabled: false, was_disabled: changed },
        text: changed ? `Enabled ${user.username}.` : `${user.username} was not disabled.`,
      }
    },
  },

  'users:set-password': {
    summary:
      "Set an account's password and end its sessions: a generated one (printed), or one from standard input.",
    usage: '<username> [--password-stdin]',
    positionals: ['username'],
    options: { 'password-stdin': { type: 'boolean' } },
    async run(ctx, args) {
      const [username] = args.positionals as [string]
      const fromStdin = args.values['password-stdin'] === true
      let password = generatePassword()
      if (fromStdin) {
        // One line: a trailing newline from `echo` or a here-string is not part of it.
        password = (await ctx.readStdin()).replace(/\r?\n$/, '')
        const checked = v.safeParse(PasswordSchema, password)
        if (!checked.success) {
          throw new UsageError(
            `the password on standard input must be one line of ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters`,
          )
        }
      }
      // Hashed before the transaction: scrypt takes a second, the write lock waits for nobody.
      const user = await userNamed(ctx, username)
      const hash = await ctx.passwords.hash(password)
      const now = ctx.clock.now()
      const sessions = await ctx.db.transaction().execute(async (trx) => {
        await trx
          .updateTable('users')
          .set({ password_hash: hash })
          .where('id', '=', user.id)
          .execute()
        const sessions = await endSessions(trx, user.id, now)
        // As after a reset: guesses at the phone's codes needed the old password.
        await forgetIdentityFailures(trx, 'code', user.phone_number)
        await recordAudit(trx, {
          actor: ctx.actor,
          action: 'users:set-password',
          user,
          // Never the password itself.
          details: { generated: !fromStdin, sessions_revoked: sessions },
          now,
        })
        return sessions
      })
      return {
        json: {
          username: user.username,
          sessions_revoked: sessions,
          ...(fromStdin ? {} : { password }),
        },
        text: fromStdin
          ? `Set the password of ${user.username}; ${sessions} session(s) ended.`
          : `Set the password of ${user.username} to: ${password}\n${sessions} session(s) ended. Give it to its owner by a safe channel.`,
      }
    },
  },

  'sessions:revoke': {
    summary: 'Sign an account out of every device (it can sign in again).',
    usage: '<username>',
    positionals: ['username'],
    async run(ctx, args) {
      const [username] = args.positionals as [string]
      const user = await userNamed(ctx, username)
      const sessions = await revokeAccountSessions(ctx.db, user, {
        actor: ctx.actor,
        now: ctx.clock.now(),
      })
      return {
        json: { username: user.username, sessions_revoked: sessions },
        text: `Ended ${sessions} session(s) of ${user.username}.`,
      }
    },
  },

  'audit:list': {
    summary: 'What operators did (disable, enable, passwords, sessions, wallet), newest first.',
    usage: '[--user U] [--limit N]',
    options: { user: { type: 'string' }, limit: { type: 'string' } },
    async run(ctx, args) {
      const limitText = typeof args.values.limit === 'string' ? args.values.limit : '50'
      const limit = Number(limitText)
      if (!Number.isInteger(limit) || limit < 1 || limit > 10_000) {
        throw new UsageError('--limit must be a whole number from 1 to 10000')
      }
      const page = await listAudit(
        ctx.db,
        { userId: await userOption(ctx, args) },
        { page: 1, perPage: limit },
        ctx.config.storeTimeZone,
      )
      const rows = page.data.map((r) => ({
        id: r.id,
        created_at: r.created_at,
        actor: r.actor,
        action: r.action,
        username: r.username,
        details: r.details,
        request_id: r.request_id,
        address: r.address,
      }))
      return {
        json: rows,
        text: table(
          rows.map((r) => ({ ...r, details: JSON.stringify(r.details) })),
          '(no entries)',
        ),
      }
    },
  },
}
