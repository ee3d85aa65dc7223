import { readFileSync } from 'node:fs'
import {
  findStockPackage,
  importCodes,
  readCodesFile,
  setLowAt,
  stockCounts,
  withdrawCodes,
} from '../services/stock'
import { CommandError, table, UsageError, type CliContext, type Command } from './command'

/*
 * The code stock (docs/api.md, Code stock): codes bought in bulk, delivered the moment an order
 * for their package is paid (services/stock.ts).
 */

const whole = (text: string, what: string, min: number) => {
  if (!/^\d{1,9}$/.test(text) || Number(text) < min)
    throw new UsageError(`${what} must be a whole number from ${min}`)
  return Number(text)
}

async function stockPackage(ctx: CliContext, text: string) {
  const id = whole(text, '<package>', 1)
  const pkg = await findStockPackage(ctx.db, id)
  if (!pkg) throw new CommandError(`No package #${id}.`)
  return { id, name: `${pkg.product_name_en} / ${pkg.name_en}` }
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`

export const stockCommands: Record<string, Command> = {
  'stock:import': {
    summary: "Add codes to a package's stock from a file (CSV: code[,expiry YYYY-MM-DD]).",
    usage: '<package> <file> [--low-at N]',
    positionals: ['package', 'file'],
    options: { 'low-at': { type: 'string' } },
    async run(ctx, args) {
      const [packageText, file] = args.positionals as [string, string]
      const pkg = await stockPackage(ctx, packageText)
      const lowAtText = args.values['low-at']
      const lowAt = typeof lowAtText === 'string' ? whole(lowAtText, '--low-at', 0) : undefined
      let text: string
      try {
        text = readFileSync(file, 'utf8')
      } catch (err) {
        throw new CommandError(`Cannot read ${file}: ${(err as Error).message}`)
      }
      let read
      try {
        read = readCodesFile(text)
      } catch (err) {
        throw new CommandError(`${file} is not a codes file: ${(err as Error).message}`)
      }
      const result = await importCodes(
        ctx.db,
        ctx.config.tokenSecret,
        pkg.id,
        read.codes,
        ctx.clock.now(),
      )
      if (lowAt !== undefined) await setLowAt(ctx.db, pkg.id, lowAt)
      const refused = [
        ...read.invalid.map((i) => `line ${i.line}: ${i.reason}`),
        ...result.repeated.map(
          (r) => `line ${r.line}: ${r.code} repeats line ${r.firstLine} (refused)`,
        ),
        ...result.inStock.map((r) => `line ${r.line}: ${r.code} is already in stock (refused)`),
      ]
      const count = refused.length
      return {
        json: {
          package_id: pkg.id,
          imported: result.imported,
          invalid: read.invalid,
          repeated: result.repeated,
          in_stock: result.inStock,
        },
        text: [
          `Imported ${plural(result.imported, 'code')} for #${pkg.id} ${pkg.name}` +
            (count > 0 ? `; ${plural(count, 'line')} refused:` : '.'),
          ...refused.map((line) => `  ${line}`),
        ].join('\n'),
        failed: count > 0,
      }
    },
  },

  'stock:list': {
    summary: 'Code stock per package: available, delivered, expired and withdrawn codes.',
    usage: '',
    async run(ctx) {
      const counts = await stockCounts(ctx.db, {
        now: ctx.clock.now(),
        defaultLowAt: ctx.config.stockLowAt,
      })
      const rows = counts.map((c) => ({
        package: c.package_id,
        name: c.package ?? '(not in the catalogue)',
        available: c.available,
        delivered: c.delivered,
        expired: c.expired,
        withdrawn: c.withdrawn,
        low_at: c.low_at,
        '': c.low ? 'LOW' : '',
      }))
      return { json: counts, text: table(rows, '(no codes in stock)') }
    },
  },

  'stock:withdraw': {
    summary: "Take codes out of a package's stock for good (the newest N, or one --code).",
    usage: '<package> [count] [--code CODE]',
    positionals: ['package'],
    optionalPositionals: ['count'],
    options: { code: { type: 'string' } },
    async run(ctx, args) {
      const [packageText, countText] = args.positionals
      const code = typeof args.values.code === 'string' ? args.values.code.trim() : undefined
      if ((countText === undefined) === (code === undefined || code === ''))
        throw new UsageError('give either a count or --code CODE')
      const pkg = await stockPackage(ctx, packageText!)
      const result = await withdrawCodes(
        ctx.db,
        ctx.config.tokenSecret,
        pkg.id,
        code ? { code } : { count: whole(countText!, '[count]', 1) },
        ctx.clock.now(),
      )
      if ('reason' in result) {
        const why = {
          unknown: `is not in the stock of #${pkg.id}`,
          delivered: 'was delivered to an order already',
          withdrawn: 'was withdrawn already',
        }[result.reason]
        throw new CommandError(`The code ${why}.`)
      }
      const { withdrawn } = result
      return {
        json: { package_id: pkg.id, withdrawn },
        text: [
          `Withdrew ${plural(withdrawn.length, 'code')} from #${pkg.id} ${pkg.name}` +
            (withdrawn.length > 0 ? ':' : ' (none was available).'),
          ...withdrawn.map((c) => `  ${c}`),
        ].join('\n'),
      }
    },
  },
}
