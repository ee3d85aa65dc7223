import type { Kysely } from 'kysely'
import { fromMicros } from '../../src/domain/money'
import type { CurrencyCode, Database, UserRow } from '../db/schema'
import { inTransaction } from '../db/transaction'
import { recordAudit } from './audit'
import { noticeMoney, notify, type Notice } from './notifications'
import { addWalletLog, creditWallet, lockUser } from './wallet'

/** The wallet holds less than the correction asks to take. */
export class InsufficientBalanceError extends Error {
  override name = 'InsufficientBalanceError'
  constructor(readonly balance: bigint) {
    super('the balance would go below zero')
  }
}

export interface Debit {
  /** Micro-units of the wallet's own currency, above 0. */
  amount: bigint
  /** The history line's name (the operator's reason). */
  name: string
  notification?: (user: UserRow) => Notice
  now: Date
  /** Runs in the same transaction, after the debit: the operator's audit line. */
  alsoInTransaction?: (trx: Kysely<Database>, user: UserRow) => Promise<void>
}

/**
 * An operator's correction: takes money from a wallet, atomically with its Discounted history
 * line and the user's notification, and never below zero (InsufficientBalanceError).
 */
export async function debitWallet(
  db: Kysely<Database>,
  userId: number,
  debit: Debit,
): Promise<UserRow> {
  if (debit.amount <= 0n) throw new RangeError('a debit must be above 0')
  return inTransaction(db, async (trx) => {
    const locked = await lockUser(trx, userId)
    if (locked.balance < debit.amount) throw new InsufficientBalanceError(locked.balance)
    let user = await trx
      .updateTable('users')
      .set((eb) => ({ balance: eb('balance', '-', debit.amount) }))
      .where('id', '=', userId)
      .returningAll()
      .executeTakeFirstOrThrow()
    await addWalletLog(trx, {
      userId,
      status: 'Discounted',
      name: debit.name,
      previousBalance: locked.balance,
      value: debit.amount,
      currentBalance: user.balance,
      currency: user.currency,
      now: debit.now,
    })
    if (debit.notification) {
      await notify(trx, user, debit.notification(user), debit.now)
      user = { ...user, new_notifications_count: user.new_notifications_count + 1 }
    }
    await debit.alsoInTransaction?.(trx, user)
    return user
  })
}

export interface Correction {
  /** Credit adds (a Charged line), debit takes (a Discounted line), never below zero. */
  direction: 'credit' | 'debit'
  /** Micro-units of `currency`, above 0. */
  amount: bigint
  /** The wallet's currency as the operator read it (a credit is converted if it changed since). */
  currency: CurrencyCode
  /** The operator's reason: the history line's name, in the customer's notification too. */
  reason: string
  /** The audit log's actor: `console:<operator>`, or the CLI's. */
  actor: string
  rate: number
  now: Date
}

/**
 * An operator's balance correction (wallet:credit, wallet:debit, and the console's): the
 * balance, the history line with the reason, the customer's notification and the audit line
 * with the balance before and after, in one transaction. Throws InsufficientBalanceError
 * when a debit would take the balance below zero, RangeError when a credit would overflow it.
 */
export async function correctBalance(
  db: Kysely<Database>,
  userId: number,
  c: Correction,
): Promise<{ user: UserRow; amount: bigint }> {
  const audit = (trx: Kysely<Database>, user: UserRow, amount: bigint) =>
    recordAudit(trx, {
      actor: c.actor,
      action: `wallet:${c.direction}`,
      user,
      details: {
        amount: fromMicros(amount),
        currency: user.currency,
        reason: c.reason,
        before: {
          balance: fromMicros(
            c.direction === 'credit' ? user.balance - amount : user.balance + amount,
          ),
        },
        after: { balance: fromMicros(user.balance) },
      },
      now: c.now,
    })
  if (c.direction === 'credit') {
    const result = await creditWallet(db, userId, {
      amount: c.amount,
      currency: c.currency,
      name: () => c.reason,
      notification: (u, credited) => ({
        message: 'wallet_credited',
        values: { amount: noticeMoney(credited, u.currency), reason: c.reason },
        subject: { kind: 'wallet' },
      }),
      rate: c.rate,
      now: c.now,
      alsoInTransaction: audit,
    })
    return { user: result.user, amount: result.credited }
  }
  const user = await debitWallet(db, userId, {
    amount: c.amount,
    name: c.reason,
    notification: (u) => ({
      message: 'wallet_debited',
      values: { amount: noticeMoney(c.amount, u.currency), reason: c.reason },
      subject: { kind: 'wallet' },
    }),
    now: c.now,
    alsoInTransaction: (trx, u) => audit(trx, u, c.amount),
  })
  return { user, amount: c.amount }
}
