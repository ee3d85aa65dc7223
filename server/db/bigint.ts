import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs } from 'kysely'

/**
 * Ledger columns: integer micro-units that are read as JS bigint on both databases, so a
 * balance has no ceiling below the database's own (PostgreSQL bigint, SQLite's 64-bit integer)
 * and never passes through a float. A query that selects a ledger amount under another name
 * (an aggregate) converts it itself.
 */
export const LEDGER_COLUMNS: ReadonlySet<string> = new Set([
  'balance',
  'previous_balance',
  'value',
  'current_balance',
  'unit_price',
  'total_price',
  'shipping_value',
  'amount',
  'unique_amount',
  'block_number',
])

/** The largest value a bigint column holds (PostgreSQL bigint, SQLite integer). */
export const INT64_MAX = 2n ** 63n - 1n

function toNumber(value: bigint, column: string): number {
  const n = Number(value)
  if (!Number.isSafeInteger(n))
    throw new RangeError(`${column} = ${value} is beyond the safe integer range`)
  return n
}

/**
 * Both drivers read every 64-bit integer as a bigint (pg's int8 parser, node:sqlite's
 * readBigInts). This turns them back into numbers (ids, counts, flags, catalogue prices,
 * which stay far below 2^53), except the ledger columns, which stay bigint; a ledger column
 * SQLite computed as a plain number (an expression) becomes a bigint too.
 */
export class LedgerBigIntPlugin implements KyselyPlugin {
  transformQuery(args: PluginTransformQueryArgs) {
    return args.node
  }

  async transformResult(args: PluginTransformResultArgs) {
    // The rows are the driver's own fresh objects, read by nobody else yet: changed in place.
    for (const row of args.result.rows as Record<string, unknown>[]) {
      for (const key in row) {
        const value = row[key]
        if (typeof value === 'bigint') {
          if (!LEDGER_COLUMNS.has(key)) row[key] = toNumber(value, key)
        } else if (
          typeof value === 'number' &&
          Number.isInteger(value) &&
          LEDGER_COLUMNS.has(key)
        ) {
          row[key] = BigInt(value)
        }
      }
    }
    return args.result
  }
}
