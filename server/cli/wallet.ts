import { fromMicros, toMicros } from '../../src/domain/money'
import { INT64_MAX } from '../db/bigint'
import { auditWallets } from '../services/wallet-audit'
import { correctBalance, InsufficientBalanceError } from '../services/wallet-correction'
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

/** wallet:credit and wallet:debit: the console's balance correction, from the terminal. */
function correction(direction: 'credit' | 'debit'): Command {
  const [line, verb, past, preposition] =
    direction === 'credit'
      ? ['a Charged', 'Add money to', 'Credited', 'to']
      : ['a Discounted', 'Take money from', 'Debited', 'from']
  return {
    summary: `${verb} a user's wallet as a correction, in the wallet's currency (${line} history line with the reason); never below zero.`,
    usage: '<username> <amount> --reason TEXT',
    positionals: ['username', 'amount'],
    options: { reason: { type: 'string' } },
    async run(ctx, args) {
      const [username] = args.positionals as [string]
      const reason = required(args, 'reason').trim()
      const amount = amountOf(args)
      const found = await userNamed(ctx, username)
      let result
      try {
        result = await correctBalance(ctx.db, found.id, {
          direction,
          amount,
          currency: found.currency,
          reason,
          actor: ctx.actor,
          rate: ctx.config.lbpRate,
          now: ctx.clock.now(),
        })
      } catch (err) {
        if (err instanceof InsufficientBalanceError) {
          throw new CommandError(
            `Cannot debit ${fromMicros(amount)} ${found.currency}: the balance of ${found.username} is ${fromMicros(err.balance)} ${found.currency}, and a wallet never goes below zero.`,
          )
        }
        if (err instanceof RangeError) throw new CommandError(`Cannot credit: ${err.message}.`)
        throw err
      }
      const { user } = result
      const balance = fromMicros(user.balance)
      const moved = fromMicros(result.amount)
      return {
        json: {
          username: user.username,
          [direction === 'credit' ? 'credited' : 'debited']: moved,
          currency: user.currency,
          balance,
          reason,
        },
        text: `${past} ${moved} ${user.currency} ${preposition} ${user.username}: balance ${balance} ${user.currency}.`,
      }
    },
  }
}

export const walletCommands: Record<string, Command> = {
  'wallet:credit': correction('credit'),
  'wallet:debit': correction('debit'),

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
