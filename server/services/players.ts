import type { Kysely } from 'kysely'
import type { PlayerApi, PlayerLookup, Provider } from '../adapters/provider'
import type { Database } from '../db/schema'

/** Longer than any game's account number: not sent to the provider. */
const PLAYER_NUMBER_MAX = 64

/** The products that search players with this API: their own or one of their packages'. */
export async function productsUsing(db: Kysely<Database>, api: PlayerApi): Promise<number[]> {
  if (api.kind === 'name') {
    const rows = await db
      .selectFrom('products')
      .select('id')
      .where('th_party_as7ab_api', '=', api.name)
      .execute()
    return rows.map((r) => r.id)
  }
  const [own, viaPackages] = await Promise.all([
    db.selectFrom('products').select('id').where('th_party_api_id', '=', api.id).execute(),
    db
      .selectFrom('packages')
      .select('product_id as id')
      .where('th_party_api_id', '=', api.id)
      .execute(),
  ])
  return [...new Set([...own, ...viaPackages].map((r) => r.id))]
}

/**
 * Finds a player's name through the provider. For a signed-in user a success is remembered
 * for every product that searches with this API (or only `productId`, when given and one of
 * them): the order call accepts that number for that product (docs/api.md, Player lookups).
 */
export async function lookupPlayer(
  db: Kysely<Database>,
  provider: Provider,
  api: PlayerApi,
  number: string,
  { userId, productId, now }: { userId?: number; productId?: number; now: Date },
): Promise<PlayerLookup> {
  if (number.length > PLAYER_NUMBER_MAX) return { found: false }
  const result = await provider.lookupPlayer(api, number)
  if (!result.found || userId === undefined) return result
  let products = await productsUsing(db, api)
  if (productId !== undefined && products.includes(productId)) products = [productId]
  const at = now.toISOString()
  for (const product of products) {
    await db
      .insertInto('player_numbers')
      .values({
        user_id: userId,
        product_id: product,
        player_number: number,
        player_name: result.name,
        verified_at: at,
      })
      .onConflict((oc) =>
        oc
          .columns(['user_id', 'product_id', 'player_number'])
          .doUpdateSet({ player_name: result.name, verified_at: at }),
      )
      .execute()
  }
  return result
}

/** GET player_number/info: the number this user last verified for the product, if any. */
export async function lastPlayerNumber(
  db: Kysely<Database>,
  userId: number,
  productId: number,
): Promise<string | null> {
  const row = await db
    .selectFrom('player_numbers')
    .select('player_number')
    .where('user_id', '=', userId)
    .where('product_id', '=', productId)
    .orderBy('verified_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst()
  return row?.player_number ?? null
}
