import type { Kysely } from 'kysely'
import { createLocalProvider } from '../adapters/provider-local'
import { cancelOrder, completeOrder } from '../services/order-status'
import { placeOrder } from '../services/order-ledger'
import { orderForm, prepareOrder, requestHash } from '../services/orders'
import { lookupPlayer } from '../services/players'
import type { Database, OrderStatus, UserRow } from '../db/schema'

/**
 * Orders of the demo account, one in each state the orders page shows, placed and settled
 * through the same services as real ones, so the balance, the wallet history and the
 * notifications agree with them.
 */
export const demoOrders: {
  product: number
  package: string
  fields: Record<string, string>
  status: OrderStatus
  codes?: string[]
  note?: string
  reason?: string
}[] = [
  {
    product: 27,
    package: 'iTunes $10',
    fields: { quantity: '1' },
    status: 'COMPLETED',
    codes: ['X7KQ-9PLM-3RTV-8WZD'],
    note: 'Redeem the code in the App Store within 12 months.',
  },
  {
    product: 2,
    package: '100 Diamonds',
    fields: { quantity: '1', player_number: '100000001' },
    status: 'CANCELED',
    reason: 'The player ID does not exist in the game.',
  },
  {
    product: 1,
    package: '325 UC',
    fields: { quantity: '1', player_number: '5123456789' },
    status: 'WAITING',
  },
]

/** A package of the demo catalogue by its product and English name (none once replaced). */
export function demoPackage(trx: Kysely<Database>, product: number, name: string) {
  return trx
    .selectFrom('packages')
    .select('id')
    .where('product_id', '=', product)
    .where('name_en', '=', name)
    .executeTakeFirst()
}

/** In the caller's transaction: the seed's guard row makes it run once per database. */
export async function seedDemoOrders(
  trx: Kysely<Database>,
  user: UserRow,
  now: Date,
): Promise<void> {
  // The demo wallet is in USD, like the catalogue: no conversion happens, any rate will do.
  const lbpRate = 89_500
  const provider = createLocalProvider()
  for (const [i, demo] of demoOrders.entries()) {
    const pkg = await demoPackage(trx, demo.product, demo.package)
    // An operator's own catalogue replaced the demo one: no demo orders then.
    if (!pkg) return
    const number = demo.fields.player_number
    if (number && demo.product === 1) {
      await lookupPlayer(trx, provider, { kind: 'id', id: 1 }, number, {
        userId: user.id,
        productId: demo.product,
        now,
      })
    }
    const form = orderForm({ ...demo.fields, package_id: String(pkg.id) })
    const current = await trx
      .selectFrom('users')
      .selectAll()
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow()
    const prepared = await prepareOrder(trx, current, form, { locale: 'en', lbpRate })
    const placed = await placeOrder(trx, current, prepared, {
      key: `demo-seed-${i + 1}`,
      requestHash: requestHash(form.fields, undefined),
      wire: { locale: 'en', timeZone: 'UTC' },
      now,
    })
    if (!placed.placed) continue
    const id = placed.order.id
    if (demo.status === 'COMPLETED') {
      await completeOrder(trx, id, { codes: demo.codes, note: demo.note, now })
    } else if (demo.status === 'CANCELED') {
      await cancelOrder(trx, id, { reason: demo.reason ?? '', lbpRate, now })
    }
  }
}
