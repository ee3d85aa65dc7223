import type { Kysely } from 'kysely'
import type { CurrencyCode, Database, UserRow, WalletLogStatus } from '../db/schema'
import { ApiError } from '../http/errors'

export interface WalletLogEntry {
  userId: number
  status: WalletLogStatus
  name: string
  previousBalance: number
  value: number
  currentBalance: number
  currency: CurrencyCode
  now: Date
}

/** One line of a user's wallet history. Call it in the transaction that moves the balance. */
export async function addWalletLog(trx: Kysely<Database>, entry: WalletLogEntry): Promise<void> {
  await trx
    .insertInto('wallet_logs')
    .values({
      user_id: entry.userId,
      status: entry.status,
      name: entry.name,
      previous_balance: entry.previousBalance,
      value: entry.value,
      current_balance: entry.currentBalance,
      currency: entry.currency,
      created_at: entry.now.toISOString(),
    })
    .execute()
}

/**
 * Switches the wallet to the other currency, converting the balance at `rate` LBP per USD
 * (USD to LBP multiplies; LBP to USD divides, rounding down to the micro-unit). Asking for
 * the currency the wallet already has changes nothing, so a repeated request is harmless.
 * The history gets two lines when there was money: the old balance leaving in the old
 * currency, the converted one arriving in the new, so each line adds up in its own currency.
 */
export async function changeCurrency(
  db: Kysely<Database>,
  userId: number,
  target: CurrencyCode,
  { rate, now }: { rate: number; now: Date },
): Promise<UserRow> {
  return db.transaction().execute(async (trx) => {
    // A no-op update takes the row lock on PostgreSQL: concurrent debits wait for us.
    const user = await trx
      .updateTable('users')
      .set((eb) => ({ currency: eb.ref('currency') }))
      .where('id', '=', userId)
      .returningAll()
      .executeTakeFirstOrThrow()
    if (user.currency === target) return user

    const before = BigInt(user.balance)
    const after = target === 'LBP' ? before * BigInt(rate) : before / BigInt(rate)
    if (after > BigInt(Number.MAX_SAFE_INTEGER))
      throw new ApiError(422, 'profile.currency_overflow')
    const converted = Number(after)

    const updated = await trx
      .updateTable('users')
      .set({ currency: target, balance: converted })
      .where('id', '=', userId)
      .returningAll()
      .executeTakeFirstOrThrow()

    if (before > 0n) {
      const name = `Currency change: ${user.currency} → ${target} (1 USD = ${rate} LBP)`
      await addWalletLog(trx, {
        userId,
        status: 'Discounted',
        name,
        previousBalance: user.balance,
        value: user.balance,
        currentBalance: 0,
        currency: user.currency,
        now,
      })
      await addWalletLog(trx, {
        userId,
        status: 'Charged',
        name,
        previousBalance: 0,
        value: converted,
        currentBalance: converted,
        currency: target,
        now,
      })
    }
    return updated
  })
}
