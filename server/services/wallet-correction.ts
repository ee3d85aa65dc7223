import type { Kysely } from 'kysely'
import type { Database, UserRow } from '../db/schema'
import { inTransaction } from '../db/transaction'
import { notify, type Notice } from './notifications'
import { addWalletLog, lockUser } from './wallet'

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
