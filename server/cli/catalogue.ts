import { readFileSync, renameSync, writeFileSync } from 'node:fs'
import { basename } from 'node:path'
import {
  CatalogueError,
  formatIssue,
  issuesByPath,
  readCatalogueText,
} from '../services/catalogue-file'
import {
  catalogueText,
  exportCatalogue,
  importCatalogue,
  type CatalogueChanges,
} from '../services/catalogue-transfer'
import { CommandError, type Command } from './command'

function counts(doc: Awaited<ReturnType<typeof exportCatalogue>>) {
  return {
    groups: doc.groups.length,
    products: doc.products.length,
    packages: doc.products.reduce((n, p) => n + p.packages.length, 0),
    images: doc.products.reduce((n, p) => n + p.images.length, 0),
    services: doc.products.reduce((n, p) => n + p.additional_services.length, 0),
  }
}

const describeCounts = (c: ReturnType<typeof counts>) =>
  `${c.groups} groups, ${c.products} products, ${c.packages} packages, ` +
  `${c.images} extra images, ${c.services} additional services`

const describeChanges = (c: Omit<CatalogueChanges, 'rows'>) =>
  (['groups', 'products', 'packages'] as const)
    .map((k) => `${k} +${c[k].added} -${c[k].removed} ~${c[k].changed}`)
    .join(', ')

export const catalogueCommands: Record<string, Command> = {
  'catalogue:export': {
    summary: 'Write the whole catalogue as JSON (stdout, or --out <file>)',
    usage: '[--out <file.json>]',
    options: { out: { type: 'string', short: 'o' } },
    async run(ctx, args) {
      const doc = await exportCatalogue(ctx.db)
      const out = args.values.out
      if (typeof out !== 'string') return { json: doc, text: catalogueText(doc).trimEnd() }
      // Written beside the target, then renamed: a reader never sees half a file.
      const partial = `${out}.partial`
      writeFileSync(partial, catalogueText(doc))
      renameSync(partial, out)
      const summary = counts(doc)
      return {
        json: { file: out, ...summary },
        text: `Wrote the catalogue to ${out}: ${describeCounts(summary)}.`,
      }
    },
  },

  'catalogue:import': {
    summary: 'Replace the whole catalogue with a JSON file (as catalogue:export writes it)',
    usage: '<file.json>',
    positionals: ['file.json'],
    async run(ctx, args) {
      const file = args.positionals[0]!
      let text: string
      try {
        text = readFileSync(file, 'utf8')
      } catch (err) {
        throw new CommandError(`Cannot read ${file}: ${(err as Error).message}`)
      }
      let catalogue
      try {
        catalogue = readCatalogueText(text)
      } catch (err) {
        if (!(err instanceof CatalogueError)) throw err
        const errors = issuesByPath(err.issues)
        const lines = err.issues.map((issue) => formatIssue(issue, basename(file)))
        const first = err.issues[0]!
        throw new CommandError(
          `${file} was refused (line ${first.line ?? 1}); the catalogue was not changed.\n` +
            lines.join('\n'),
          errors,
        )
      }
      const { changes, ...summary } = await importCatalogue(ctx.db, catalogue, {
        actor: ctx.actor,
        now: ctx.clock.now(),
      })
      const { rows, ...changed } = changes
      const lines = rows.map((r) => `  ${r.change} ${r.kind} #${r.id} ${r.name_en}`)
      return {
        json: { file, ...summary, changes: changed },
        text: [
          `Imported the catalogue from ${file}: ${describeCounts(summary)}.`,
          `Changed: ${describeChanges(changed)}.`,
          ...lines,
        ].join('\n'),
      }
    },
  },
}
