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
    const { result } = args
    if (result.rows.length === 0) return result
    let changed = false
    const rows = result.rows.map((row) => {
      let copy: Record<string, unknown> | undefined
      for (const key in row) {
        const value = row[key]
        const ledger = LEDGER_COLUMNS.has(key)
        if (typeof value === 'bigint' && !ledger) {
          copy ??= { ...row }
          copy[key] = toNumber(value, key)
        } else if (typeof value === 'number' && ledger && Number.isInteger(value)) {
          copy ??= { ...row }
          copy[key] = BigInt(value)
        }
      }
      if (copy) changed = true
      return copy ?? row
    })
    return changed ? { ...result, rows } : result
  }
}
