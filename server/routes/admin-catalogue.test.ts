import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import sharp from 'sharp'
import * as v from 'valibot'
import { afterAll, beforeAll, expect, it } from 'vitest'
import {
  CatalogueImportReplySchema,
  ConsoleCatalogueReplySchema,
  ConsoleItemReplySchema,
  ConsoleSliderReplySchema,
  PromoListReplySchema,
  PromoReplySchema,
} from '../../src/contract/console-catalogue'
import { PackagePageSchema } from '../../src/contract/catalogue'
import type { App } from '../app'
import { exportCatalogue } from '../services/catalogue-transfer'
import { runOperator } from '../test/cli'
import {
  post as consolePost,
  read as consoleGet,
  signedIn as consoleSession,
} from '../test/console'
import { describeEachDatabase } from '../test/context'
import { balanceOf, customer, twoServers } from '../test/orders'

/** A multipart post from the console page: the catalogue file. */
function upload(app: App, cookie: string, text: string, locale = 'en') {
  const form = new FormData()
  form.append('file', new Blob([text], { type: 'application/json' }), 'catalogue.json')
  return app.request(`/api/admin/catalogue/import?local=${locale}`, {
    method: 'POST',
    body: form,
    headers: { origin: 'http://localhost', cookie },
  })
}

const messageOf = async (res: Response) => ((await res.json()) as { message: string }).message

describeEachDatabase('console: catalogue and promo codes', (ctx) => {
  let dir: string
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'console-catalogue-'))
  })
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  const packagesOf = async (productId: number) =>
    v.parse(
      PackagePageSchema,
      await (await ctx.app.request(`/api/products/${productId}/packages`)).json(),
    ).data

  it('exports the file the CLI writes, and imports one with the CLI’s result, audited', async () => {
    const { cookie, account } = await consoleSession(ctx, 'owner')
    const res = await consoleGet(ctx.app, 'catalogue/export', cookie)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="catalogue-/)
    const exported = await res.text()
    const cli = await runOperator(ctx, 'catalogue:export', '--out', join(dir, 'cli.json'))
    expect(cli.code, cli.stderr).toBe(0)
    expect(exported).toBe(readFileSync(join(dir, 'cli.json'), 'utf8'))

    // An edited file: a product renamed and priced anew, one gone.
    const doc = JSON.parse(exported)
    doc.products[0].name_en = 'PUBG Mobile UC (edited)'
    doc.products[0].company_price = '0.75'
    const gone = doc.products.pop()
    const edited = JSON.stringify(doc, null, 2)
    const imported = await upload(ctx.app, cookie, edited)
    expect(imported.status, await imported.clone().text()).toBe(200)
    const body = v.parse(CatalogueImportReplySchema, await imported.json())
    expect(body.message).toMatch(/^The catalogue was imported: 54 products, \d+ packages\.$/)
    expect(body.data.changes.products).toEqual({ added: 0, removed: 1, changed: 1 })
    expect(body.data.changes.rows).toContainEqual(
      expect.objectContaining({ kind: 'product', id: doc.products[0].id, change: 'changed' }),
    )
    expect(body.data.changes.rows).toContainEqual(
      expect.objectContaining({ kind: 'product', id: gone.id, change: 'removed' }),
    )
    const viaConsole = JSON.stringify(await exportCatalogue(ctx.db))
    const audit = await ctx.db
      .selectFrom('audit_log')
      .selectAll()
      .where('actor', '=', `console:${account.username}`)
      .where('action', '=', 'catalogue:import')
      .executeTakeFirstOrThrow()
    expect(JSON.parse(audit.details)).toMatchObject({
      products: 54,
      changes: { products: body.data.changes.products },
    })

    // The CLI, given the same file after the original, ends in the same catalogue and summary.
    writeFileSync(join(dir, 'edited.json'), edited)
    expect((await runOperator(ctx, 'catalogue:import', join(dir, 'cli.json'))).code).toBe(0)
    const again = await runOperator(ctx, 'catalogue:import', join(dir, 'edited.json'), '--json')
    expect(again.code, again.stderr).toBe(0)
    const { file: _, ...cliSummary } = JSON.parse(again.stdout) as Record<string, unknown>
    const { rows: __, ...consoleChanges } = body.data.changes
    expect(cliSummary).toEqual({ ...body.data, changes: consoleChanges })
    expect(JSON.stringify(await exportCatalogue(ctx.db))).toBe(viaConsole)
    expect((await ctx.app.request('/api/products/1')).status).toBe(200)
    // Put the store's catalogue back for the other tests.
    expect((await upload(ctx.app, cookie, exported)).status).toBe(200)
  })

  it('refuses a bad file with its line, in the operator’s language, and changes nothing', async () => {
    const { cookie } = await consoleSession(ctx, 'owner')
    const before = JSON.stringify(await exportCatalogue(ctx.db))
    const doc = JSON.parse(before)
    doc.products[1].company_price = 'free'
    const text = JSON.stringify(doc, null, 2)
    const res = await upload(ctx.app, cookie, text, 'ar')
    expect(res.status).toBe(422)
    const body = (await res.json()) as { message: string; errors: Record<string, string[]> }
    const line = text.split('\n').findIndex((l) => l.includes('"free"')) + 1
    expect(body.message).toBe(`رُفض الملف (السطر ${line})؛ لم يتغير الكتالوج.`)
    expect(body.errors['products[1].company_price']?.[0]).toMatch(
      new RegExp(`^line ${line}, column`),
    )
    const missing = await upload(ctx.app, cookie, '')
    expect(missing.status).toBe(422)
    expect(await messageOf(missing)).toBe('Choose the catalogue file (JSON) to import.')
    expect(JSON.stringify(await exportCatalogue(ctx.db))).toBe(before)
  })

  it('shows a package’s new price and availability in the storefront at once', async () => {
    const { cookie } = await consoleSession(ctx, 'owner')
    const [pkg] = await packagesOf(4)
    expect(pkg).toBeDefined()
    // The storefront's reply is kept (sharedReply): read it twice, then change the price.
    await packagesOf(4)
    const res = await consolePost(
      ctx.app,
      `catalogue/packages/${pkg!.id}/prices`,
      { company_price: '12.345678', company_percentage: '2.5', product_percentage: '10' },
      cookie,
    )
    expect(res.status, await res.clone().text()).toBe(200)
    const saved = v.parse(ConsoleItemReplySchema, await res.json())
    expect(saved.data).toMatchObject({
      id: pkg!.id,
      company_price: 12.345678,
      company_percentage: 2.5,
      product_percentage: 10,
    })
    expect(saved.message).toMatch(/^The prices of .+ are saved: the store shows them now\.$/)
    const shown = (await packagesOf(4)).find((p) => p.id === pkg!.id)!
    expect(shown.company_price).toBe(12.345678)
    expect(shown.product_percentage).toBe(10)
    const stored = await ctx.db
      .selectFrom('packages')
      .select('company_price')
      .where('id', '=', pkg!.id)
      .executeTakeFirstOrThrow()
    expect(Number(stored.company_price)).toBe(12_345_678)

    // An operator takes it off sale; the storefront says so at once.
    const operator = await consoleSession(ctx, 'operator')
    const off = await consolePost(
      ctx.app,
      `catalogue/packages/${pkg!.id}/availability?local=ar`,
      { available: '0' },
      operator.cookie,
    )
    expect(off.status).toBe(200)
    expect(v.parse(ConsoleItemReplySchema, await off.json()).data.is_available).toBe(false)
    expect((await packagesOf(4)).find((p) => p.id === pkg!.id)!.is_available).toBe(false)
    const overview = v.parse(
      ConsoleCatalogueReplySchema,
      await (await consoleGet(ctx.app, 'catalogue', operator.cookie)).json(),
    ).data
    const listed = overview.products.find((p) => p.id === 4)!.packages.find((p) => p.id === pkg!.id)
    expect(listed).toMatchObject({ is_available: false, company_price: 12.345678 })
    expect(
      (
        await consolePost(
          ctx.app,
          `catalogue/packages/${pkg!.id}/availability`,
          { available: '1' },
          operator.cookie,
        )
      ).status,
    ).toBe(200)
    const actions = await ctx.db
      .selectFrom('audit_log')
      .select(['action', 'details'])
      .where('action', 'in', ['catalogue:prices', 'catalogue:availability'])
      .orderBy('id')
      .execute()
    expect(JSON.parse(actions[0]!.details)).toMatchObject({
      kind: 'package',
      before: { company_price: pkg!.company_price },
      after: { company_price: 12.345678 },
    })
  })

  it('refuses prices and the catalogue file to an operator, and a price that is not one', async () => {
    const { cookie } = await consoleSession(ctx, 'operator')
    const [pkg] = await packagesOf(4)
    const prices = { company_price: '1', company_percentage: '0', product_percentage: '0' }
    const refused = await consolePost(
      ctx.app,
      `catalogue/packages/${pkg!.id}/prices`,
      prices,
      cookie,
    )
    expect(refused.status).toBe(403)
    expect(await messageOf(refused)).toBe("Only the store's owner can do this.")
    expect((await consolePost(ctx.app, 'catalogue/products/1/prices', prices, cookie)).status).toBe(
      403,
    )
    expect((await upload(ctx.app, cookie, '{}')).status).toBe(403)
    expect((await packagesOf(4))[0]!.company_price).toBe(pkg!.company_price)

    const owner = await consoleSession(ctx, 'owner')
    const bad = await consolePost(
      ctx.app,
      `catalogue/packages/${pkg!.id}/prices?local=ar`,
      { ...prices, company_price: '1.2345678' },
      owner.cookie,
    )
    expect(bad.status).toBe(422)
    expect(await messageOf(bad)).toContain('سعر الشركة')
    const nobody = await consolePost(
      ctx.app,
      'catalogue/packages/999999/prices',
      prices,
      owner.cookie,
    )
    expect(nobody.status).toBe(404)
  })

  it('makes promo codes once per code, lists their uses, and switches them off', async () => {
    const { cookie } = await consoleSession(ctx, 'operator')
    const code = { code: 'Summer-26', value: '2.5', uses: '3', expires: '2099-12-31' }
    // The same code (in another case) twice at the same moment: one is made.
    const { apps, close } = twoServers(ctx)
    let made
    try {
      made = await Promise.all([
        consolePost(apps[0]!, 'promo-codes', code, cookie),
        consolePost(apps[1]!, 'promo-codes', { ...code, code: 'SUMMER-26' }, cookie),
      ])
    } finally {
      await close()
    }
    expect(made.map((r) => r.status).sort()).toEqual([200, 409])
    const conflict = made.find((r) => r.status === 409)!
    expect(await messageOf(conflict)).toBe('A code SUMMER-26 exists already.')
    const created = v.parse(PromoReplySchema, await made.find((r) => r.status === 200)!.json())
    expect(created.data).toMatchObject({ value: 2.5, currency: 'USD', uses: 0, uses_allowed: 3 })
    expect(created.data.expires_at).toBe('2100-01-01T00:00:00.000Z')

    // A customer redeems it: their balance goes up once, the list counts the use.
    const buyer = await customer(ctx, { balance: '0' })
    const redeem = () => {
      const form = new FormData()
      form.append('promo_code', 'summer-26')
      return ctx.app.request('/api/charging-processes?name=PROMO_CODE', {
        method: 'POST',
        body: form,
        headers: { authorization: `Bearer ${buyer.token}` },
      })
    }
    expect((await redeem()).status).toBe(200)
    expect(await balanceOf(ctx, buyer.user.id)).toBe(2_500_000n)
    const list = v.parse(
      PromoListReplySchema,
      await (await consoleGet(ctx.app, 'promo-codes', cookie)).json(),
    ).data
    expect(list.find((p) => p.id === created.data.id)).toMatchObject({ uses: 1, disabled_at: null })
    const cli = await runOperator(ctx, 'promo:list', '--json')
    expect(JSON.parse(cli.stdout)).toContainEqual(
      expect.objectContaining({ code: created.data.code, uses: 1 }),
    )

    // Switched off: nobody redeems it any more; a second switch-off says so.
    const off = await consolePost(ctx.app, `promo-codes/${created.data.id}/disable`, {}, cookie)
    expect(off.status).toBe(200)
    expect(v.parse(PromoReplySchema, await off.json()).data.disabled_at).not.toBeNull()
    const other = await customer(ctx, { balance: '0' })
    const form = new FormData()
    form.append('promo_code', 'SUMMER-26')
    const late = await ctx.app.request('/api/charging-processes?name=PROMO_CODE', {
      method: 'POST',
      body: form,
      headers: { authorization: `Bearer ${other.token}` },
    })
    expect(late.status).toBe(422)
    expect(await messageOf(late)).toBe('This code is not valid.')
    expect(await balanceOf(ctx, other.user.id)).toBe(0n)
    const twice = await consolePost(ctx.app, `promo-codes/${created.data.id}/disable`, {}, cookie)
    expect(twice.status).toBe(409)
    const audit = await ctx.db
      .selectFrom('audit_log')
      .select('action')
      .where('action', 'like', 'promo.%')
      .execute()
    expect(audit.map((a) => a.action).sort()).toEqual(['promo.create', 'promo.disable'])

    // A bad form keeps to the operator's language.
    const bad = await consolePost(
      ctx.app,
      'promo-codes?local=ar',
      { code: 'a b', value: '0', uses: '0' },
      cookie,
    )
    expect(bad.status).toBe(422)
    expect(await messageOf(bad)).toBe('يجب أن يتكون الرمز من 3 إلى 64 حرفًا أو رقمًا أو - أو _.')
  })

  it('moves and removes slider pictures, and the storefront shows the new order', async () => {
    const { cookie } = await consoleSession(ctx, 'operator')
    const slides = async () =>
      v.parse(ConsoleSliderReplySchema, await (await ctx.app.request('/api/slider/images')).json())
        .data
    const before = await slides()
    expect(before.length).toBeGreaterThan(1)
    const moved = await consolePost(
      ctx.app,
      `slider/${before[1]!.id}/move`,
      { direction: 'up' },
      cookie,
    )
    expect(moved.status).toBe(200)
    expect((await slides()).map((s) => s.id)).toEqual([
      before[1]!.id,
      before[0]!.id,
      ...before.slice(2).map((s) => s.id),
    ])
    const removed = await ctx.app.request(`/api/admin/slider/${before[0]!.id}`, {
      method: 'DELETE',
      headers: { origin: 'http://localhost', cookie },
    })
    expect(removed.status).toBe(200)
    expect((await slides()).map((s) => s.id)).not.toContain(before[0]!.id)
  })

  it('adds a slider picture: a file that is no picture is refused in words, a photo is shown last', async () => {
    const { cookie, account } = await consoleSession(ctx, 'operator')
    const add = (file: Blob, name: string, locale = 'en') => {
      const form = new FormData()
      form.append('image', file, name)
      return ctx.app.request(`/api/admin/slider?local=${locale}`, {
        method: 'POST',
        body: form,
        headers: { origin: 'http://localhost', cookie },
      })
    }
    const slides = async () =>
      v.parse(ConsoleSliderReplySchema, await (await ctx.app.request('/api/slider/images')).json())
        .data
    const before = await slides()

    // A text file named like a picture: refused in the operator's language, nothing kept.
    const bad = await add(new Blob(['not a picture'], { type: 'image/png' }), 'slide.png', 'ar')
    expect(bad.status).toBe(422)
    expect(await messageOf(bad)).toBe('يجب أن تكون الصورة بصيغة JPEG أو PNG أو WebP.')
    const none = await ctx.app.request('/api/admin/slider', {
      method: 'POST',
      body: new FormData(),
      headers: { origin: 'http://localhost', cookie },
    })
    expect(await messageOf(none)).toBe('Choose the picture to add (JPEG, PNG or WebP).')
    expect(await slides()).toEqual(before)
    expect(readdirSync(ctx.config.sliderDir)).toEqual([])

    const png = await sharp({
      create: { width: 1200, height: 400, channels: 3, background: '#0f766e' },
    })
      .png()
      .toBuffer()
    const added = await add(new Blob([new Uint8Array(png)], { type: 'image/png' }), 'slide.png')
    expect(added.status).toBe(200)
    const after = await slides()
    expect(after.slice(0, -1)).toEqual(before)
    const slide = after.at(-1)!
    expect(slide.image).toMatch(/^\/media\/slider\/[0-9a-f-]{36}\.jpg$/)
    // Served to anyone, re-encoded as a receipt is.
    const served = await ctx.app.request(slide.image)
    expect(served.status).toBe(200)
    expect(served.headers.get('content-type')).toBe('image/jpeg')
    expect((await sharp(Buffer.from(await served.arrayBuffer())).metadata()).width).toBe(1200)
    // And as the narrower copy a phone picks.
    const copy = await ctx.app.request(`${slide.image}?w=480`)
    expect(copy.headers.get('content-type')).toBe('image/jpeg')
    const narrow = await sharp(Buffer.from(await copy.arrayBuffer())).metadata()
    expect([narrow.format, narrow.width, narrow.height]).toEqual(['jpeg', 480, 160])
    // Audited as the console's other writes are.
    const line = await ctx.db
      .selectFrom('audit_log')
      .select(['actor', 'details'])
      .where('action', '=', 'slider.add')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow()
    expect(line.actor).toBe(`console:${account.username}`)
    expect(JSON.parse(line.details)).toEqual({ after: slide })
  })
})
