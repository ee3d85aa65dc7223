import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import * as v from 'valibot'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { ProductDetailReplySchema, ProductPageSchema } from '../../src/contract/catalogue'
import { checkCatalogue, readCatalogueText } from '../services/catalogue-file'
import { decimalText, exportCatalogue, importCatalogue } from '../services/catalogue-transfer'
import { runOperator } from '../test/cli'
import { describeEachDatabase } from '../test/context'

const run = runOperator

/** The 1-based number of the first line containing `needle`. */
function lineOf(text: string, needle: string): number {
  const lines = text.split('\n')
  const index = lines.findIndex((line) => line.includes(needle))
  if (index < 0) throw new Error(`${needle} not found`)
  return index + 1
}

describeEachDatabase('catalogue:export and catalogue:import', (ctx) => {
  let dir: string
  let original: string
  const file = (name: string) => join(dir, name)

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'catalogue-'))
    const out = await run(ctx, 'catalogue:export', '--out', file('original.json'))
    expect(out.stderr).toBe('')
    expect(out.code).toBe(0)
    original = readFileSync(file('original.json'), 'utf8')
  })
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  const snapshot = async () => ({
    text: JSON.stringify(await exportCatalogue(ctx.db), null, 2),
    list: await (await ctx.app.request('/api/products?per_page=300&local=ar')).text(),
    detail: await (await ctx.app.request('/api/products/36?local=en')).text(),
    packages: await (await ctx.app.request('/api/products/4/packages')).text(),
  })

  it('exports the whole catalogue in a stable order with decimal strings', async () => {
    expect(original.endsWith('}\n')).toBe(true)
    const doc = JSON.parse(original)
    expect(doc).toMatchObject({ format: 'wallet-store/catalogue', version: 1 })
    expect(doc.groups).toHaveLength(2)
    expect(doc.products).toHaveLength(55)
    expect(doc.products[0]).toMatchObject({
      id: 1,
      company_price: '0.89',
      product_percentage: '5',
      istoken: false,
      requirements: [],
    })
    expect(doc.products.find((p: { id: number }) => p.id === 44)).toMatchObject({
      company_price: '0.0001',
      company_percentage: '3',
      istoken: true,
    })
    // The same catalogue exports the same bytes, on stdout too.
    const again = await run(ctx, 'catalogue:export')
    expect(again.code).toBe(0)
    expect(again.stdout).toBe(original)
    const json = await run(ctx, 'catalogue:export', '--json')
    expect(JSON.parse(json.stdout)).toEqual(doc)
  })

  it('imports its own export and ends where it started', async () => {
    const before = await snapshot()
    const out = await run(ctx, 'catalogue:import', file('original.json'), '--json')
    expect(out.stderr).toBe('')
    expect(out.code).toBe(0)
    expect(JSON.parse(out.stdout)).toEqual({
      file: file('original.json'),
      groups: 2,
      products: 55,
      packages: 159,
      images: 5,
      services: 20,
      changes: {
        groups: { added: 0, removed: 0, changed: 0 },
        products: { added: 0, removed: 0, changed: 0 },
        packages: { added: 0, removed: 0, changed: 0 },
      },
    })
    expect(await snapshot()).toEqual(before)
    const text = await run(ctx, 'catalogue:import', file('original.json'))
    expect(text.stdout).toMatch(
      /^Imported the catalogue from .*: 2 groups, 55 products, 159 packages/,
    )
  })

  it('replaces the catalogue with an edited file, and new rows get fresh ids afterwards', async () => {
    const doc = JSON.parse(original)
    doc.products = doc.products.filter((p: { id: number }) => p.id !== 55)
    doc.products[0].name_en = 'PUBG Mobile UC (Global)'
    doc.products[0].company_price = 0.5
    doc.products.push({
      id: 900,
      number: 3,
      name_en: 'Litecoin (LTC)',
      name_ar: 'لايتكوين (LTC)',
      company_price: '72.125',
      packages: [
        {
          id: 9000,
          name_en: 'Any amount',
          name_ar: 'أي مبلغ',
          company_price: '72.125',
          type: 'direct',
        },
      ],
    })
    writeFileSync(file('edited.json'), JSON.stringify(doc))
    try {
      const out = await run(ctx, 'catalogue:import', file('edited.json'))
      expect(out.stderr).toBe('')
      expect(out.code).toBe(0)
      // What changed, row by row: the edited product, the new one with its package, the gone one.
      expect(out.stdout).toMatch(
        /Changed: groups \+0 -0 ~0, products \+1 -1 ~1, packages \+1 -\d+ ~0\./,
      )
      expect(out.stdout).toContain('changed product #1 PUBG Mobile UC (Global)')
      expect(out.stdout).toContain('added product #900 Litecoin (LTC)')
      expect(out.stdout).toContain('removed product #55 ')
      const page = v.parse(
        ProductPageSchema,
        await (await ctx.app.request('/api/products?per_page=300')).json(),
      )
      expect(page.total).toBe(55)
      expect(page.data[0]).toMatchObject({ id: 1, name: 'PUBG Mobile UC (Global)' })
      expect(page.data.at(-1)).toMatchObject({ id: 900, name: 'Litecoin (LTC)', number: 3 })
      expect((await ctx.app.request('/api/products/55')).status).toBe(404)
      const detail = v.parse(
        ProductDetailReplySchema,
        await (await ctx.app.request('/api/products/1')).json(),
      )
      expect(detail.data.company_price).toBe(0.5)
      const search = v.parse(
        ProductPageSchema,
        await (await ctx.app.request('/api/products?search=litecoin')).json(),
      )
      expect(search.data.map((p) => p.id)).toEqual([900])
      // Ids the database hands out next do not collide with imported ones.
      const group = await ctx.db
        .insertInto('product_groups')
        .values({ name_en: 'New', name_ar: 'جديد' })
        .returning('id')
        .executeTakeFirstOrThrow()
      expect(group.id).toBeGreaterThan(2)
      const pkg = await ctx.db
        .insertInto('packages')
        .values({ product_id: 900, name_en: 'x', name_ar: 'س', company_price: 1 })
        .returning('id')
        .executeTakeFirstOrThrow()
      expect(pkg.id).toBeGreaterThan(9000)
    } finally {
      expect((await run(ctx, 'catalogue:import', file('original.json'))).code).toBe(0)
    }
    expect(JSON.stringify(await exportCatalogue(ctx.db), null, 2)).toBe(original.trimEnd())
  })

  it('refuses a bad file with the line of the problem and changes nothing', async () => {
    const before = await snapshot()
    // Keys come in a fixed order: id, number, group_id, name_en.
    const numberLine = lineOf(original, '"name_en": "Call of Duty Mobile CP"') - 2
    expect(original.split('\n')[numberLine - 1]).toContain('"number": 1,')
    const bad = original
      .split('\n')
      .map((line, i) => (i + 1 === numberLine ? line.replace('"number": 1', '"number": 9') : line))
      .join('\n')
    writeFileSync(file('bad.json'), bad)
    const out = await run(ctx, 'catalogue:import', file('bad.json'), '--json')
    expect(out.code).toBe(1)
    expect(out.stdout).toBe('')
    const reply = JSON.parse(out.stderr)
    expect(reply.error).toContain(`refused (line ${numberLine})`)
    expect(reply.error).toContain('the catalogue was not changed')
    expect(reply.errors).toEqual({
      'products[2].number': [`line ${numberLine}, column 7: expected a product number from 1 to 7`],
    })
    const text = await run(ctx, 'catalogue:import', file('bad.json'))
    expect(text.stderr).toContain(
      `bad.json:${numberLine}:7: products[2].number: expected a product number from 1 to 7`,
    )
    expect(await snapshot()).toEqual(before)
  })

  it('reports syntax errors, unknown and missing fields, bad amounts and broken references', async () => {
    const cases: { name: string; edit: (text: string) => string; expect: RegExp }[] = [
      {
        name: 'trailing comma',
        edit: (t) => t.replace('"version": 1,', '"version": 1,,'),
        expect:
          /^3:16: \(document\): not valid JSON: Expected a key in double quotes but found ","$/,
      },
      {
        name: 'unknown field',
        edit: (t) => t.replace('"company_price": "0.89"', '"compnay_price": "0.89"'),
        expect: /^\d+:\d+: products\[0\]\.compnay_price: unknown field "compnay_price"$/,
      },
      {
        name: 'bad amount',
        edit: (t) => t.replace('"company_price": "0.89"', '"company_price": "0,89"'),
        expect: /^\d+:\d+: products\[0\]\.company_price: expected an amount as a decimal string/,
      },
      {
        name: 'broken merge_to',
        edit: (t) => t.replace('"merge_to": 32', '"merge_to": 777'),
        expect:
          /^\d+:\d+: products\[3\]\.packages\[4\]\.merge_to: there is no product with id 777$/,
      },
      {
        name: 'duplicate product id',
        edit: (t) => t.replace('"id": 2,\n      "number": 1', '"id": 1,\n      "number": 1'),
        expect:
          /^\d+:\d+: products\[1\]\.id: product id 1 is used twice \(also at products\[0\]\.id\)$/,
      },
      {
        name: 'duplicate key',
        edit: (t) => t.replace('"version": 1,', '"version": 1,\n  "version": 1,'),
        expect: /^4:3: \(document\): not valid JSON: Duplicate key "version"$/,
      },
      {
        name: 'wrong format',
        edit: (t) => t.replace('"wallet-store/catalogue"', '"something-else"'),
        expect: /^2:3: format: expected "wallet-store\/catalogue"$/,
      },
    ]
    for (const c of cases) {
      const text = c.edit(original)
      expect(text, c.name).not.toBe(original)
      let message = ''
      try {
        readCatalogueText(text)
      } catch (err) {
        message = (err as Error).message
      }
      // Every problem is listed, one a line; the one looked for is among them.
      const found = message.split('\n').find((l) => c.expect.test(l))
      expect(found, `${c.name}: ${message}`).toBeDefined()
      // The line named is the line with the problem on it.
      const [line] = found!.split(':')
      const named = text.split('\n')[Number(line) - 1]!
      if (c.name === 'unknown field') expect(named).toContain('compnay_price')
      if (c.name === 'bad amount') expect(named).toContain('"0,89"')
      if (c.name === 'broken merge_to') expect(named).toContain('777')
    }
  })

  it('names the enclosing object for a missing field', () => {
    const doc = JSON.parse(original)
    delete doc.products[1].packages[0].company_price
    const text = JSON.stringify(doc, null, 2)
    expect(() => readCatalogueText(text)).toThrow(
      new RegExp(
        `^${lineOf(text, '"id": 8,') - 1}:9: products\\[1\\]\\.packages\\[0\\]\\.company_price: missing field "company_price"$`,
      ),
    )
  })

  it('keeps the catalogue when writing fails half-way', async () => {
    const before = await snapshot()
    const catalogue = checkCatalogue(JSON.parse(original))
    // Checked on its own, then given a clash only the database sees.
    const clash = { ...catalogue, products: [...catalogue.products, catalogue.products[0]!] }
    await expect(importCatalogue(ctx.db, clash)).rejects.toThrow()
    expect(await snapshot()).toEqual(before)
  })

  it('says so when the file cannot be read or is not given', async () => {
    const missing = await run(ctx, 'catalogue:import', file('nope.json'))
    expect(missing.code).toBe(1)
    expect(missing.stderr).toMatch(/^Cannot read .*nope\.json/)
    const none = await run(ctx, 'catalogue:import')
    expect(none.code).toBe(2)
  })
})

it('writes amounts as the shortest exact decimal', () => {
  expect(decimalText(0)).toBe('0')
  expect(decimalText(1)).toBe('0.000001')
  expect(decimalText(1_250_000)).toBe('1.25')
  expect(decimalText(5_000_000)).toBe('5')
  expect(decimalText(123_456_789_012_345)).toBe('123456789.012345')
})
