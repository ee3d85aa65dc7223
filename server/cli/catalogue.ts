import { readFileSync, renameSync, writeFileSync } from 'node:fs'
import { basename } from 'node:path'
import { CatalogueError, formatIssue, readCatalogueText } from '../services/catalogue-file'
import { exportCatalogue, importCatalogue } from '../services/catalogue-transfer'
import { CommandError, type Command } from './command'

/** The document as a file: two-space indents, keys in a fixed order, a final newline. */
const documentText = (doc: unknown) => JSON.stringify(doc, null, 2)

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

export const catalogueCommands: Record<string, Command> = {
  'catalogue:export': {
    summary: 'Write the whole catalogue as JSON (stdout, or --out <file>)',
    usage: '[--out <file.json>]',
    options: { out: { type: 'string', short: 'o' } },
    async run(ctx, args) {
      const doc = await exportCatalogue(ctx.db)
      const out = args.values.out
      if (typeof out !== 'string') return { json: doc, text: documentText(doc) }
      // Written beside the target, then renamed: a reader never sees half a file.
      const partial = `${out}.partial`
      writeFileSync(partial, documentText(doc) + '\n')
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
        const errors: Record<string, string[]> = Object.create(null) // keyed by the file's paths
        for (const issue of err.issues) {
          const where =
            issue.line === undefined ? '' : `line ${issue.line}, column ${issue.column}: `
          ;(errors[issue.path || '(document)'] ??= []).push(where + issue.message)
        }
        const lines = err.issues.map((issue) => formatIssue(issue, basename(file)))
        const first = err.issues[0]!
        throw new CommandError(
          `${file} was refused (line ${first.line ?? 1}); the catalogue was not changed.\n` +
            lines.join('\n'),
          errors,
        )
      }
      const summary = await importCatalogue(ctx.db, catalogue)
      return {
        json: { file, ...summary },
        text: `Imported the catalogue from ${file}: ${describeCounts(summary)}.`,
      }
    },
  },
}
