import { fromMicros, toMicros } from '../../src/domain/money'
import { INT64_MAX } from '../db/bigint'
import { noticeMoney } from '../services/notifications'
import { recordAudit } from '../services/audit'
import { creditWallet } from '../services/wallet'
import { auditWallets } from '../services/wallet-audit'
import { debitWallet, InsufficientBalanceError } from '../services/wallet-correction'
import {
  CommandError,
  required,
  table,
  UsageError,
  type Command,
  type CommandArgs,
  userNamed,
} from './command'

/** `<amount>` in micro-units: a positive decimal within the database's range. */
function amountOf(args: CommandArgs): bigint {
  const text = args.positionals[1] ?? ''
  let amount: bigint
  try {
    amount = toMicros(text)
  } catch {
    throw new UsageError(`<amount> must be a decimal number like 25 or 12.50`)
  }
  if (amount <= 0n) throw new UsageError('<amount> must be above 0')
  if (amount > INT64_MAX) throw new UsageError('<amount> is too large')
  return amount
}

export const walletCommands: Record<string, Command> = {
  'wallet:credit': {
    summary: "Add money to a user's wallet, in the wallet's currency (a Charged history line).",
    usage: '<username> <amount> --reason TEXT',
    positionals: ['username', 'amount'],
    options: { reason: { type: 'string' } },
    async run(ctx, args) {
      const [username] = args.positionals as [string]
      const reason = required(args, 'reason').trim()
      const amount = amountOf(args)
      const user = await userNamed(ctx, username)
      let result
      try {
        result = await creditWallet(ctx.db, user.id, {
          amount,
          currency: user.currency,
          name: () => reason,
          notification: (u, credited) => ({
            message: 'wallet_credited',
            values: { amount: noticeMoney(credited, u.currency), reason },
            subject: { kind: 'wallet' },
          }),
          rate: ctx.config.lbpRate,
          now: ctx.clock.now(),
        })
      } catch (err) {
        if (err instanceof RangeError) throw new CommandError(`Cannot credit: ${err.message}.`)
        throw err
      }
      const balance = fromMicros(result.user.balance)
      const credited = fromMicros(result.credited)
      return {
        json: {
          username: result.user.username,
          credited,
          currency: result.user.currency,
          balance,
          reason,
        },
        text: `Credited ${credited} ${result.user.currency} to ${result.user.username}: balance ${balance} ${result.user.currency}.`,
      }
    },
  },

  'wallet:debit': {
    summary:
      "Take money from a user's wallet as a correction, in the wallet's currency (a Discounted history line); never below zero.",
    usage: '<username> <amount> --reason TEXT',
    positionals: ['username', 'amount'],
    options: { reason: { type: 'string' } },
    async run(ctx, args) {
      const [username] = args.positionals as [string]
      const reason = required(args, 'reason').trim()
      const amount = amountOf(args)
      const found = await userNamed(ctx, username)
      const now = ctx.clock.now()
      let user
      try {
        user = await debitWallet(ctx.db, found.id, {
          amount,
          name: reason,
          notification: (u) => ({
            message: 'wallet_debited',
            values: { amount: noticeMoney(amount, u.currency), reason },
            subject: { kind: 'wallet' },
          }),
          now,
          alsoInTransaction: (trx, u) =>
            recordAudit(trx, {
              actor: ctx.actor,
              action: 'wallet:debit',
              user: u,
              details: { amount: fromMicros(amount), currency: u.currency, reason },
              now,
            }),
        })
      } catch (err) {
        if (err instanceof InsufficientBalanceError) {
          throw new CommandError(
            `Cannot debit ${fromMicros(amount)} ${found.currency}: the balance of ${found.username} is ${fromMicros(err.balance)} ${found.currency}, and a wallet never goes below zero.`,
          )
        }
        throw err
      }
      const balance = fromMicros(user.balance)
      const debited = fromMicros(amount)
      return {
        json: { username: user.username, debited, currency: user.currency, balance, reason },
        text: `Debited ${debited} ${user.currency} from ${user.username}: balance ${balance} ${user.currency}.`,
      }
    },
  },

  'wallet:audit': {
    summary:
      "Check every wallet's history and balance, and every credited USDT transfer; exit 1 on a problem.",
    usage: '',
    async run(ctx) {
      const report = await auditWallets(ctx.db)
      const summary = `${report.wallets} wallets, ${report.lines} history lines, ${report.transfers} credited transfers`
      return {
        json: report,
        text: report.ok
          ? `OK: ${summary}.`
          : `${report.problems.length} problems in ${summary}:\n${table(
              report.problems.map((p) => ({
                user: p.user_id ?? '',
                line: p.line_id ?? '',
                request: p.request_id ?? '',
                transfer: p.transfer_id ?? '',
                problem: p.problem,
              })),
              '',
            )}`,
        failed: !report.ok,
      }
    },
  },
}
