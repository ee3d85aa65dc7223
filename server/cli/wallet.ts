import { formatMoney, fromMicros, toMicros } from '../../src/domain/money'
import { INT64_MAX } from '../db/bigint'
import { notificationText } from '../services/notifications'
import { findUserByUsername } from '../services/users'
import { creditWallet } from '../services/wallet'
import { CommandError, required, UsageError, type Command } from './command'

export const walletCommands: Record<string, Command> = {
  'wallet:credit': {
    summary: "Add money to a user's wallet, in the wallet's currency (a Charged history line).",
    usage: '<username> <amount> --reason TEXT',
    positionals: ['username', 'amount'],
    options: { reason: { type: 'string' } },
    async run(ctx, args) {
      const [username, amountText] = args.positionals as [string, string]
      const reason = required(args, 'reason').trim()
      let amount: bigint
      try {
        amount = toMicros(amountText)
      } catch {
        throw new UsageError(`<amount> must be a decimal number like 25 or 12.50`)
      }
      if (amount <= 0n) throw new UsageError('<amount> must be above 0')
      if (amount > INT64_MAX) throw new UsageError('<amount> is too large')
      const user = await findUserByUsername(ctx.db, username)
      if (!user) throw new CommandError(`No user named ${username}.`)
      let result
      try {
        result = await creditWallet(ctx.db, user.id, {
          amount,
          currency: user.currency,
          name: () => reason,
          notification: (u, credited) =>
            notificationText(
              u.locale,
              'notification.wallet_credited.title',
              'notification.wallet_credited.body',
              { amount: formatMoney(credited, u.currency, u.locale), reason },
            ),
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
}
