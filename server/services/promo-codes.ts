import type { Kysely } from 'kysely'
import { fromMicros } from '../../src/domain/money'
import type { CurrencyCode, Database } from '../db/schema'
import type { PromoCodeRow } from '../db/schema-wallet'
import { ApiError } from '../core/errors'
import { inTransaction } from '../db/transaction'
import { recordAudit } from './audit'
import { isUniqueViolation } from './users'

/*
 * Promo codes, as the operator makes, lists and switches them off (`promo:*` commands and the
 * console's promo screen, docs/api.md). Redeeming one is charging.ts's `redeemPromo`.
 */

/** What makes two codes the same: case and surrounding space do not count. */
export const promoKey = (code: string) => code.trim().toUpperCase()

/** The last day a code may be used (YYYY-MM-DD), as the UTC instant it stops. */
export const promoExpiry = (day: string) =>
  new Date(Date.parse(`${day}T00:00:00.000Z`) + 86_400_000).toISOString()

export interface NewPromo {
  code: string
  value: bigint
  currency: CurrencyCode
  usesAllowed: number
  /** The instant it stops (promoExpiry), or none. */
  expiresAt: string | null
}

/** A code as the CLI prints it and the console shows it: money as a decimal. */
export const promoWire = (p: PromoCodeRow) => ({
  id: p.id,
  code: p.code,
  value: fromMicros(p.value),
  currency: p.currency,
  uses: p.uses,
  uses_allowed: p.uses_allowed,
  expires_at: p.expires_at,
  disabled_at: p.disabled_at,
  created_at: p.created_at,
})

/**
 * Makes a code, audited in the same transaction when an operator makes it (the demo's seed
 * makes its codes without an actor). Two codes with one key (promoKey) cannot
 * both exist: the unique index on `code_key` refuses the second, even at the same moment,
 * and this answers 409 `promo.taken`.
 */
export async function createPromo(
  db: Kysely<Database>,
  promo: NewPromo,
  { now, actor }: { now: Date; actor?: string },
): Promise<PromoCodeRow> {
  try {
    return await inTransaction(db, async (trx) => {
      const row = await trx
        .insertInto('promo_codes')
        .values({
          code: promo.code.trim(),
          code_key: promoKey(promo.code),
          value: promo.value,
          currency: promo.currency,
          uses_allowed: promo.usesAllowed,
          uses: 0,
          expires_at: promo.expiresAt,
          created_at: now.toISOString(),
        })
        .returningAll()
        .executeTakeFirstOrThrow()
      if (actor)
        await recordAudit(trx, {
          actor,
          action: 'promo.create',
          details: { after: promoWire(row) },
          now,
        })
      return row
    })
  } catch (err) {
    if (isUniqueViolation(err))
      throw new ApiError(409, 'promo.taken', { code: promoKey(promo.code) }, { cause: err })
    throw err
  }
}

/** Every code, newest first, with its uses. */
export function listPromos(db: Kysely<Database>): Promise<PromoCodeRow[]> {
  return db.selectFrom('promo_codes').selectAll().orderBy('id', 'desc').execute()
}

/**
 * Switches a code off, once (a guarded update: a second call changes nothing and says so),
 * audited with the code before and after. 404 `promo.not_found` for no such code.
 */
export async function disablePromo(
  db: Kysely<Database>,
  id: number,
  { now, actor }: { now: Date; actor: string },
): Promise<{ changed: boolean; promo: PromoCodeRow }> {
  return db.transaction().execute(async (trx) => {
    const before = await trx
      .selectFrom('promo_codes')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst()
    if (!before) throw new ApiError(404, 'promo.not_found')
    const after = await trx
      .updateTable('promo_codes')
      .set({ disabled_at: now.toISOString() })
      .where('id', '=', id)
      .where('disabled_at', 'is', null)
      .returningAll()
      .executeTakeFirst()
    if (!after) return { changed: false, promo: before }
    await recordAudit(trx, {
      actor,
      action: 'promo.disable',
      details: { before: promoWire(before), after: promoWire(after) },
      now,
    })
    return { changed: true, promo: after }
  })
}
