import type { Insertable, Kysely } from 'kysely'
import { INT64_MAX } from '../db/bigint'
import { prepared } from '../db/prepared'
import type {
  CurrencyCode,
  Database,
  LocaleCode,
  UserRow,
  WalletLogStatus,
  WalletLogTable,
} from '../db/schema'
import { inTransaction } from '../db/transaction'
import { ApiError } from '../core/errors'
import { t } from '../i18n'
import { notify, type Notice } from './notifications'

/**
 * A wallet line's name: said in each language (the customer reads the history in the one
 * they use then), or one text for every language (an operator's reason).
 */
export type LineName = string | ((locale: LocaleCode) => string)

export interface WalletLogEntry {
  userId: number
  status: WalletLogStatus
  name: LineName
  previousBalance: bigint
  value: bigint
  currentBalance: bigint
  currency: CurrencyCode
  now: Date
}

/** One line of a user's wallet history. Call it in the transaction that moves the balance. */
export async function addWalletLog(trx: Kysely<Database>, entry: WalletLogEntry): Promise<void> {
  const { name } = entry
  await insertWalletLog(trx, {
    user_id: entry.userId,
    status: entry.status,
    name: typeof name === 'string' ? name : name('en'),
    name_ar: typeof name === 'string' ? null : name('ar'),
    previous_balance: entry.previousBalance,
    value: entry.value,
    current_balance: entry.currentBalance,
    currency: entry.currency,
    created_at: entry.now.toISOString(),
  })
}

/** Every order writes one: built once (db/prepared.ts). */
const insertWalletLog = prepared((db, line: Insertable<WalletLogTable>) =>
  db.insertInto('wallet_logs').values(line),
)

/**
 * The user's row, locked until the transaction ends: a no-op update takes the row lock on
 * PostgreSQL (SQLite's transactions already hold the write lock), so concurrent debits,
 * refunds and currency switches of this user wait for us.
 */
export function lockUser(trx: Kysely<Database>, userId: number): Promise<UserRow> {
  return trx
    .updateTable('users')
    .set((eb) => ({ currency: eb.ref('currency') }))
    .where('id', '=', userId)
    .returningAll()
    .executeTakeFirstOrThrow()
}

/**
 * An amount in another wallet currency at `rate` LBP per USD: USD to LBP multiplies, LBP to
 * USD divides and rounds down to the micro-unit.
 */
export function convertBetween(
  micros: bigint,
  from: CurrencyCode,
  to: CurrencyCode,
  rate: number,
): bigint {
  if (from === to) return micros
  return to === 'LBP' ? micros * BigInt(rate) : micros / BigInt(rate)
}

/**
 * Switches the wallet to the other currency, converting the balance at `rate` LBP per USD.
 * Asking for the currency the wallet already has changes nothing, so a repeated request is
 * harmless. The history gets two lines when there was money: the old balance leaving in the
 * old currency, the converted one arriving in the new, so each line adds up in its own
 * currency.
 */
export async function changeCurrency(
  db: Kysely<Database>,
  userId: number,
  target: CurrencyCode,
  { rate, now }: { rate: number; now: Date },
): Promise<UserRow> {
  return inTransaction(db, async (trx) => {
    const user = await lockUser(trx, userId)
    if (user.currency === target) return user

    const before = user.balance
    const converted = convertBetween(before, user.currency, target, rate)
    // Only the database's own integer limit is left (about 9.2 trillion USD in micro-units).
    if (converted > INT64_MAX) throw new ApiError(422, 'profile.currency_overflow')

    const updated = await trx
      .updateTable('users')
      .set({ currency: target, balance: converted })
      .where('id', '=', userId)
      .returningAll()
      .executeTakeFirstOrThrow()

    if (before > 0n) {
      const name = (locale: LocaleCode) =>
        t(locale, 'wallet.currency_change', { from: user.currency, to: target, rate })
      await addWalletLog(trx, {
        userId,
        status: 'Discounted',
        name,
        previousBalance: before,
        value: before,
        currentBalance: 0n,
        currency: user.currency,
        now,
      })
      await addWalletLog(trx, {
        userId,
        status: 'Charged',
        name,
        previousBalance: 0n,
        value: converted,
        currentBalance: converted,
        currency: target,
        now,
      })
    }
    return updated
  })
}

export interface Credit {
  /** Micro-units of `currency`, above 0. */
  amount: bigint
  /** The currency the amount is in; converted when the wallet is in the other one. */
  currency: CurrencyCode
  /** The wallet history line's name. */
  name: (user: UserRow, credited: bigint) => LineName
  /** The notification the user gets, if any. */
  notification?: (user: UserRow, credited: bigint) => Notice
  rate: number
  now: Date
  /** Runs in the same transaction, after the credit: an operator's audit line. */
  alsoInTransaction?: (trx: Kysely<Database>, user: UserRow, credited: bigint) => Promise<void>
}

/**
 * Adds money to a wallet, atomically: the balance, a Charged history line and the
 * notification move together or not at all. Returns the user after the credit and the amount
 * credited in the wallet's currency.
 */
export async function creditWallet(
  db: Kysely<Database>,
  userId: number,
  credit: Credit,
): Promise<{ user: UserRow; credited: bigint }> {
  if (credit.amount <= 0n) throw new RangeError('a credit must be above 0')
  return inTransaction(db, async (trx) => {
    const locked = await lockUser(trx, userId)
    const credited = convertBetween(credit.amount, credit.currency, locked.currency, credit.rate)
    if (locked.balance + credited > INT64_MAX) throw new RangeError('the balance would overflow')
    const user = await trx
      .updateTable('users')
      .set((eb) => ({ balance: eb('balance', '+', credited) }))
      .where('id', '=', userId)
      .returningAll()
      .executeTakeFirstOrThrow()
    await addWalletLog(trx, {
      userId,
      status: 'Charged',
      name: credit.name(user, credited),
      previousBalance: user.balance - credited,
      value: credited,
      currentBalance: user.balance,
      currency: user.currency,
      now: credit.now,
    })
    await credit.alsoInTransaction?.(trx, user, credited)
    if (credit.notification) {
      await notify(trx, user, credit.notification(user, credited), credit.now)
      return {
        user: { ...user, new_notifications_count: user.new_notifications_count + 1 },
        credited,
      }
    }
    return { user, credited }
  })
}
