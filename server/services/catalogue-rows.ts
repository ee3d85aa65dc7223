import type { Kysely } from 'kysely'
import { prepared } from '../db/prepared'
import type { Database } from '../db/schema'
import type { PackageRow, ProductRow } from '../db/schema-catalogue'

/** Past this many rows of one kind the copies are dropped and read again. */
const MAX_ROWS = 10_000

const packageById = prepared((db, { id }: { id: number }) =>
  db.selectFrom('packages').selectAll().where('id', '=', id),
)
const productById = prepared((db, { id }: { id: number }) =>
  db.selectFrom('products').selectAll().where('id', '=', id),
)

/** Rows of one table by id, with the copies kept for one content version. */
export interface RowSource {
  product(db: Kysely<Database>, id: number): Promise<ProductRow | undefined>
  package(db: Kysely<Database>, id: number): Promise<PackageRow | undefined>
}

/** Straight from the database, each time (tests, the seed, the operator CLI). */
export const catalogueRowsFromDb: RowSource = {
  async product(db, id) {
    return (await productById(db, { id })).rows[0]
  },
  async package(db, id) {
    return (await packageById(db, { id })).rows[0]
  },
}

/**
 * The products and packages orders are priced from, kept in memory for as long as the
 * database's content version stays the same (migration 0011_content_version: any write to the
 * catalogue, by any process, moves it on). Every lookup goes by a version read after its
 * request came in: the one its session's read brought (`at`), or else the reply cache's read,
 * which one read serves for all the requests of a turn of the event loop and which always
 * begins after the lookup asked. So a price is never older than the catalogue was when the
 * order came in, as when each order read its rows (docs/architecture.md, "Orders"). A row read
 * on a miss is kept under the version read before it, so it is at least as new as that
 * version. The rows are frozen: callers share them.
 */
export class CatalogueRows implements RowSource {
  readonly #version: () => Promise<string>
  #of: string | undefined
  #rows = { product: new Map<number, ProductRow>(), package: new Map<number, PackageRow>() }

  constructor(version: () => Promise<string>) {
    this.#version = version
  }

  product(db: Kysely<Database>, id: number) {
    return this.#row(db, id, 'product')
  }

  package(db: Kysely<Database>, id: number) {
    return this.#row(db, id, 'package')
  }

  /**
   * The rows for a request that already knows a content version read after it came in (its
   * session's read, services/sessions.ts): the same rows, without reading the version again.
   */
  at(version: string): RowSource {
    return {
      product: (db, id) => this.#row(db, id, 'product', version),
      package: (db, id) => this.#row(db, id, 'package', version),
    }
  }

  async #row<K extends 'product' | 'package'>(
    db: Kysely<Database>,
    id: number,
    kind: K,
    known?: string,
  ): Promise<(K extends 'product' ? ProductRow : PackageRow) | undefined> {
    type Row = K extends 'product' ? ProductRow : PackageRow
    const version = known ?? (await this.#version())
    if (version !== this.#of) {
      this.#of = version
      this.#rows = { product: new Map(), package: new Map() }
    }
    const rows = this.#rows[kind] as Map<number, Row>
    const hit = rows.get(id)
    if (hit) return hit
    const row = (await catalogueRowsFromDb[kind](db, id)) as Row | undefined
    // Kept only while no newer version has been seen; a missing row is not kept.
    if (row && version === this.#of && rows === this.#rows[kind]) {
      if (rows.size >= MAX_ROWS) rows.clear()
      rows.set(id, Object.freeze(row) as Row)
    }
    return row
  }
}

/** Products, packages and additional services, each in the store's order (position, then id). */
export function catalogueInOrder(db: Kysely<Database>) {
  return Promise.all([
    db.selectFrom('products').selectAll().orderBy('position').orderBy('id').execute(),
    db.selectFrom('packages').selectAll().orderBy('position').orderBy('id').execute(),
    db
      .selectFrom('product_additional_services')
      .selectAll()
      .orderBy('position')
      .orderBy('id')
      .execute(),
  ])
}

/** Rows by their product, each product's in the order given; none is an empty list. */
export function byProduct<T extends { product_id: number }>(rows: T[]): (id: number) => T[] {
  const groups = new Map<number, T[]>()
  for (const row of rows) {
    const group = groups.get(row.product_id)
    if (group) group.push(row)
    else groups.set(row.product_id, [row])
  }
  return (id) => groups.get(id) ?? []
}
