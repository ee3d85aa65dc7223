import type { Kysely } from 'kysely'
import { fromMicros } from '../../src/domain/money'
import type { Database } from '../db/schema'
import { ApiError } from '../core/errors'
import { recordAudit } from './audit'

/*
 * The catalogue's availability and prices, one product or package at a time (the console's
 * catalogue screen, docs/api.md; the CLI changes them through the catalogue file).
 * Every write moves the content version on (a trigger, migration 0011), so the storefront's
 * kept replies are dropped and the next request shows the change.
 */

export type CatalogueItemKind = 'product' | 'package'

const TABLE = { product: 'products', package: 'packages' } as const

/** The stored price fields: micro-units, and micro-units of a percent (2.5 % is 2,500,000). */
export interface StoredPrices {
  company_price: number
  company_percentage: number
  product_percentage: number
}

const PRICE_COLUMNS = ['company_price', 'company_percentage', 'product_percentage'] as const
const ITEM_COLUMNS = ['id', 'name_en', 'name_ar', 'is_available', ...PRICE_COLUMNS] as const

type ItemRow = StoredPrices & { id: number; name_en: string; name_ar: string; is_available: number }

/** A product or package as the console shows it: money and percentages as decimals. */
const itemWire = (row: ItemRow) => ({
  id: row.id,
  name_en: row.name_en,
  name_ar: row.name_ar,
  is_available: row.is_available === 1,
  company_price: fromMicros(row.company_price),
  company_percentage: fromMicros(row.company_percentage),
  product_percentage: fromMicros(row.product_percentage),
})
export type CatalogueItemWire = ReturnType<typeof itemWire>

/** Every product in the store's order, with its number and its packages. */
export async function catalogueOverview(db: Kysely<Database>) {
  const [products, packages] = await Promise.all([
    db
      .selectFrom('products')
      .select([...ITEM_COLUMNS, 'number'])
      .orderBy('position')
      .orderBy('id')
      .execute(),
    db
      .selectFrom('packages')
      .select([...ITEM_COLUMNS, 'product_id'])
      .orderBy('position')
      .orderBy('id')
      .execute(),
  ])
  const byProduct = Map.groupBy(packages, (p) => p.product_id)
  return products.map((p) => ({
    ...itemWire(p),
    number: p.number,
    packages: (byProduct.get(p.id) ?? []).map(itemWire),
  }))
}

/**
 * Changes one product's or package's row in a transaction with its audit line (the row's
 * fields before and after); 404 `catalogue.not_found` for no such row.
 */
async function changeItem(
  db: Kysely<Database>,
  kind: CatalogueItemKind,
  id: number,
  change: Partial<StoredPrices & { is_available: number }>,
  { actor, now, action }: { actor: string; now: Date; action: string },
): Promise<CatalogueItemWire> {
  return db.transaction().execute(async (trx) => {
    const table = TABLE[kind]
    const before = await trx
      .selectFrom(table)
      .select(ITEM_COLUMNS)
      .where('id', '=', id)
      .executeTakeFirst()
    if (!before) throw new ApiError(404, 'catalogue.not_found')
    const after = await trx
      .updateTable(table)
      .set(change)
      .where('id', '=', id)
      .returning(ITEM_COLUMNS)
      .executeTakeFirstOrThrow()
    await recordAudit(trx, {
      actor,
      action,
      details: { kind, id, before: itemWire(before), after: itemWire(after) },
      now,
    })
    return itemWire(after)
  })
}

/** Puts a product or package on sale or takes it off (audited `catalogue:availability`). */
export function setAvailability(
  db: Kysely<Database>,
  kind: CatalogueItemKind,
  id: number,
  available: boolean,
  who: { actor: string; now: Date },
) {
  return changeItem(
    db,
    kind,
    id,
    { is_available: available ? 1 : 0 },
    { ...who, action: 'catalogue:availability' },
  )
}

/** Sets a product's or package's price fields (audited `catalogue:prices`). */
export function setPrices(
  db: Kysely<Database>,
  kind: CatalogueItemKind,
  id: number,
  prices: { companyPrice: bigint; companyPercentage: bigint; productPercentage: bigint },
  who: { actor: string; now: Date },
) {
  return changeItem(
    db,
    kind,
    id,
    {
      company_price: Number(prices.companyPrice),
      company_percentage: Number(prices.companyPercentage),
      product_percentage: Number(prices.productPercentage),
    },
    { ...who, action: 'catalogue:prices' },
  )
}
