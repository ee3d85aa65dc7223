import sharp from 'sharp'
import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import {
  GroupListReplySchema,
  GroupReplySchema,
  PackageDetailReplySchema,
  PackagePageSchema,
  ProductDetailReplySchema,
  ProductPageSchema,
} from '../../src/contract/catalogue'
import { MessageReplySchema } from '../../src/contract/common'
import { demoCatalogue } from '../demo/seed-catalogue'
import { escapeXml, parseImageName, renderImage } from '../services/catalogue-images'
import { describeEachDatabase } from '../test/context'

const IMMUTABLE = 'public, max-age=31536000, immutable'
const PUBLIC = 'public, max-age=300'

const demo = demoCatalogue()
const demoProducts = demo.products
const allPackages = demoProducts.flatMap((p) =>
  (p.packages ?? []).map((pkg) => ({ ...pkg, product: p })),
)
const packageNamed = (name: string) => allPackages.find((p) => p.name_en === name)!

describeEachDatabase('catalogue API', (ctx) => {
  const get = (path: string, init?: RequestInit) => ctx.app.request(path, init)
  async function json<S extends v.GenericSchema>(schema: S, path: string) {
    const res = await get(path)
    expect(res.status, path).toBe(200)
    expect(res.headers.get('cache-control'), path).toBe(PUBLIC)
    return v.parse(schema, await res.json())
  }
  const notFound = async (path: string, message: string) => {
    const res = await get(path)
    expect(res.status, path).toBe(404)
    expect(res.headers.get('cache-control'), path).toBe('no-store')
    expect(v.parse(MessageReplySchema, await res.json()).message, path).toBe(message)
  }

  describe('GET products', () => {
    it('gives the first 15 products in the store order with the page facts', async () => {
      const page = await json(ProductPageSchema, '/api/products?local=en')
      expect(page).toMatchObject({ total: 55, per_page: 15, current_page: 1, last_page: 4 })
      expect(page.data.map((p) => p.id)).toEqual(demoProducts.slice(0, 15).map((p) => p.id))
      expect(page.data[0]).toEqual({
        id: 1,
        number: 1,
        name: 'PUBG Mobile UC',
        image: expect.stringMatching(/^\/media\/catalogue\/product-1\.[0-9a-f]{8}\.webp$/),
        available: true,
      })
    })

    it('grows per_page by 15 on page 1 (infinite scroll) and caps it at 300', async () => {
      const seen: number[][] = []
      for (const perPage of [15, 30, 45, 60]) {
        const page = await json(
          ProductPageSchema,
          `/api/products?local=en&page=1&per_page=${perPage}`,
        )
        expect(page.per_page).toBe(perPage)
        expect(page.total).toBe(55)
        seen.push(page.data.map((p) => p.id))
      }
      expect(seen.map((ids) => ids.length)).toEqual([15, 30, 45, 55])
      // Each longer list starts with the shorter one: the grid only appends.
      for (let i = 1; i < seen.length; i++)
        expect(seen[i]!.slice(0, seen[i - 1]!.length)).toEqual(seen[i - 1])
      expect(seen[3]).toEqual(demoProducts.map((p) => p.id))

      const capped = await json(ProductPageSchema, '/api/products?per_page=100000')
      expect(capped).toMatchObject({ per_page: 300, last_page: 1 })
      expect(capped.data).toHaveLength(55)
    })

    it('pages through the list, and reads bad paging values as the defaults', async () => {
      const last = await json(ProductPageSchema, '/api/products?page=4')
      expect(last.data.map((p) => p.id)).toEqual(demoProducts.slice(45).map((p) => p.id))
      expect(last.current_page).toBe(4)
      const beyond = await json(ProductPageSchema, '/api/products?page=9')
      expect(beyond).toMatchObject({ data: [], total: 55, current_page: 9, last_page: 4 })
      for (const query of ['page=0&per_page=0', 'page=-2&per_page=abc', 'page=1.5&per_page=1e3']) {
        const page = await json(ProductPageSchema, `/api/products?${query}`)
        expect(page, query).toMatchObject({ current_page: 1, per_page: 15, total: 55 })
      }
    })

    it('names products in the request language, English by default', async () => {
      const ar = await json(ProductPageSchema, '/api/products?local=ar&per_page=2')
      expect(ar.data.map((p) => p.name)).toEqual(['شدات ببجي موبايل', 'جواهر فري فاير'])
      const plain = await json(ProductPageSchema, '/api/products?per_page=2')
      expect(plain.data.map((p) => p.name)).toEqual(['PUBG Mobile UC', 'Free Fire Diamonds'])
      const odd = await json(ProductPageSchema, '/api/products?local=fr&per_page=1')
      expect(odd.data[0]!.name).toBe('PUBG Mobile UC')
    })

    it('marks unavailable and force-unavailable products', async () => {
      const page = await json(ProductPageSchema, '/api/products?per_page=300')
      const unavailable = page.data.filter((p) => !p.available).map((p) => p.id)
      expect(unavailable).toEqual([13, 43])
    })
  })

  describe('GET products?search=', () => {
    it('finds products by either name, case-insensitively, a page at a time', async () => {
      const first = await json(ProductPageSchema, '/api/products?search=CARD&local=en&page=1')
      expect(first).toMatchObject({ total: 16, per_page: 15, current_page: 1, last_page: 2 })
      expect(first.data).toHaveLength(15)
      for (const p of first.data) expect(p.name.toLowerCase()).toContain('card')
      const second = await json(ProductPageSchema, '/api/products?search=card&local=en&page=2')
      expect(second).toMatchObject({ total: 16, current_page: 2 })
      expect(second.data).toHaveLength(1)
      const ids = [...first.data, ...second.data].map((p) => p.id)
      expect(new Set(ids).size).toBe(16)
    })

    it('finds Arabic names, and answers in the request language', async () => {
      const ar = await json(
        ProductPageSchema,
        `/api/products?search=${encodeURIComponent('بطاقة')}&local=ar`,
      )
      expect(ar.total).toBe(14)
      for (const p of ar.data) expect(p.name).toContain('بطاقة')
      // An English query with local=ar still answers with the Arabic names.
      const mixed = await json(ProductPageSchema, '/api/products?search=pubg&local=ar')
      expect(mixed.data).toEqual([expect.objectContaining({ id: 1, name: 'شدات ببجي موبايل' })])
    })

    it('ignores Arabic short vowels and spelling variants of hamza and ta marbuta', async () => {
      for (const q of ['بَبْجِي', 'ببجى', 'كريستالات جينشن', 'بطاقه نتفليكس', 'امازون']) {
        const page = await json(ProductPageSchema, `/api/products?search=${encodeURIComponent(q)}`)
        expect(page.total, q).toBe(1)
      }
    })

    it('answers an empty page when nothing matches, and treats LIKE wildcards as text', async () => {
      for (const q of ['zzzz', '%', '_', '\\']) {
        const page = await json(ProductPageSchema, `/api/products?search=${encodeURIComponent(q)}`)
        expect(page, q).toMatchObject({ data: [], total: 0, last_page: 1 })
      }
    })

    it('gives the normal list for an empty or blank search', async () => {
      for (const q of ['', '%20%20']) {
        const page = await json(ProductPageSchema, `/api/products?search=${q}&local=en`)
        expect(page.total, q).toBe(55)
        expect(page.data[0]!.id).toBe(1)
      }
    })
  })

  describe('GET products/{id}', () => {
    it('gives the detail with images and flags as the contract reads them', async () => {
      const { data } = await json(ProductDetailReplySchema, '/api/products/1?local=en')
      expect(data).toMatchObject({
        id: 1,
        number: 1,
        name: 'PUBG Mobile UC',
        istoken: false,
        is_available: true,
        force_unavailable: false,
        company_price: 0.89,
        product_percentage: 5,
        th_party_api_id: 1,
        th_party_as7ab_api: 'pubg-mobile',
        product_reference: 'PUBGM',
        requirements: [],
        player_numbers: [],
        product_additional_services: [],
        group_id: 1,
        group_name: 'Popular games',
      })
      const arabic = await json(ProductDetailReplySchema, '/api/products/1?local=ar')
      expect(arabic.data.group_name).toBe('الألعاب الأكثر رواجًا')
      expect((await json(ProductDetailReplySchema, '/api/products/24')).data.group_name).toBe(null)
      expect(data.images).toHaveLength(3)
      expect(new Set(data.images.map((i) => i.image)).size).toBe(3)
      const raw = (await (await get('/api/products/1')).json()) as { data: Record<string, unknown> }
      // On the wire: 0/1 flags, decimal numbers, JSON strings.
      expect(raw.data).toMatchObject({
        istoken: 0,
        is_available: 1,
        requirements: '[]',
        company_price: 0.89,
      })
    })

    it('gives the requirements list with labels in the request language', async () => {
      const en = await json(ProductDetailReplySchema, '/api/products/35?local=en')
      expect(en.data.requirements).toEqual([
        { name: 'player_id', label: 'Player ID' },
        { name: 'server', label: 'Server' },
      ])
      expect(en.data.player_numbers).toEqual(['player_id'])
      const raw = (await (await get('/api/products/35?local=ar')).json()) as {
        data: { requirements: string; note: string }
      }
      expect(typeof raw.data.requirements).toBe('string')
      expect(JSON.parse(raw.data.requirements)).toEqual([
        { name: 'player_id', label: 'معرّف اللاعب' },
        { name: 'server', label: 'السيرفر' },
      ])
      expect(raw.data.note).toMatch(/[\u0600-\u06FF]/)
    })

    it('lists the social services of a product', async () => {
      const { data } = await json(ProductDetailReplySchema, '/api/products/17?local=ar')
      expect(data.product_additional_services.map((s) => s.type)).toEqual([
        'LIKES',
        'COMMENTS',
        'VIEWS',
        'FOLLOWERS',
      ])
      expect(data.product_additional_services[0]).toMatchObject({
        minimum_qut: 100,
        company_price: 0.002,
        product_percentage: 10,
        minimum_qut_note: 'الحد الأدنى 100',
        note: 'إعجابات على منشور واحد.',
      })
    })

    it('carries the token, crypto, FREE_FIRE and unavailable cases', async () => {
      const token = await json(ProductDetailReplySchema, '/api/products/44')
      expect(token.data).toMatchObject({
        number: 6,
        istoken: true,
        company_percentage: 3,
        product_percentage: 5,
        company_price: 0.0001,
        minimum_qut: 10000,
      })
      const crypto = await json(ProductDetailReplySchema, '/api/products/24')
      expect(crypto.data).toMatchObject({
        number: 3,
        company_price: 1.03,
        sec_company_price: 1.015,
      })
      const freeFire = await json(ProductDetailReplySchema, '/api/products/2')
      expect(freeFire.data).toMatchObject({ pkey: 'FREE_FIRE', require_player_number: true })
      const tiktok = await json(ProductDetailReplySchema, '/api/products/12')
      expect(tiktok.data.is_tiktok).toBe(true)
      const off = await json(ProductDetailReplySchema, '/api/products/13')
      expect(off.data).toMatchObject({ is_available: false, force_unavailable: false })
      const forced = await json(ProductDetailReplySchema, '/api/products/43')
      expect(forced.data).toMatchObject({ is_available: true, force_unavailable: true })
    })
  })

  describe('GET products/{id}/packages', () => {
    it('lists the entries, with merge_to entries numbered after their target', async () => {
      const page = await json(PackagePageSchema, '/api/products/4/packages?local=en')
      expect(page).toMatchObject({ total: 5, per_page: 15, current_page: 1, last_page: 1 })
      expect(page.data.map((p) => p.number)).toEqual([1, 1, 1, 1, 4])
      expect(page.data[4]).toMatchObject({
        name: 'Roblox Gift Card (code)',
        merge_to: 32,
        number: 4,
        available: true,
      })
      expect(page.data[0]).toMatchObject({
        name: '400 Robux',
        type: 'package',
        merge_to: null,
        company_price: 4.75,
        product_percentage: 6,
      })
      const target = await json(ProductDetailReplySchema, '/api/products/32')
      expect(target.data.number).toBe(4)
    })

    it('answers in English without local, in Arabic with local=ar', async () => {
      const plain = await json(PackagePageSchema, '/api/products/1/packages')
      expect(plain.data[0]!.name).toBe('60 UC')
      const ar = await json(PackagePageSchema, '/api/products/1/packages?local=ar')
      expect(ar.data[0]!.name).toBe('60 شدة')
      expect(ar.data.map((p) => p.id)).toEqual(plain.data.map((p) => p.id))
    })

    it('pages the entries', async () => {
      const page = await json(PackagePageSchema, '/api/products/1/packages?page=2&per_page=3')
      expect(page).toMatchObject({ total: 7, per_page: 3, current_page: 2, last_page: 3 })
      expect(page.data.map((p) => p.name)).toEqual(['1,800 UC', '3,850 UC', '8,100 UC'])
    })

    it('applies the availability rules: package flag and product availability', async () => {
      const cod = await json(PackagePageSchema, '/api/products/3/packages')
      expect(cod.data.map((p) => [p.is_available, p.available])).toEqual([
        [true, true],
        [true, true],
        [true, true],
        [false, false],
      ])
      for (const id of [13, 43]) {
        const page = await json(PackagePageSchema, `/api/products/${id}/packages`)
        expect(page.data.length).toBeGreaterThan(0)
        for (const p of page.data) expect(p).toMatchObject({ is_available: true, available: false })
      }
    })

    it('has a product whose only entry is not of type package', async () => {
      const page = await json(PackagePageSchema, '/api/products/48/packages')
      expect(page.data).toHaveLength(1)
      expect(page.data[0]).toMatchObject({ type: 'direct', number: 7 })
      const types = new Set(allPackages.map((p) => p.type ?? 'package'))
      expect([...types].sort()).toEqual(['code', 'direct', 'membership', 'package', 'subscription'])
    })
  })

  describe('GET products/groups', () => {
    it('gives the groups that hold products, in the store order and the language asked', async () => {
      const en = await json(GroupListReplySchema, '/api/products/groups?local=en')
      expect(en.data.map(({ id, name, products_count }) => ({ id, name, products_count }))).toEqual(
        [
          { id: 1, name: 'Popular games', products_count: 5 },
          { id: 2, name: 'Social media', products_count: 5 },
        ],
      )
      expect(en.data[0]!.image).toMatch(/^\/media\/catalogue\/group-1\.[0-9a-f]{8}\.webp$/)
      const ar = await json(GroupListReplySchema, '/api/products/groups?local=ar')
      expect(ar.data.map((group) => group.name)).toEqual([
        'الألعاب الأكثر رواجًا',
        'وسائل التواصل الاجتماعي',
      ])
    })
  })

  describe('GET products/by-group/{id}', () => {
    it('gives the group with its products', async () => {
      const { data } = await json(GroupReplySchema, '/api/products/by-group/1?local=en')
      expect(data).toMatchObject({ id: 1, name: 'Popular games' })
      expect(data.image).toMatch(/^\/media\/catalogue\/group-1\.[0-9a-f]{8}\.webp$/)
      expect(data.products.map((p) => p.id)).toEqual([1, 2, 3, 4, 35])
      const ar = await json(GroupReplySchema, '/api/products/by-group/2?local=ar')
      expect(ar.data.name).toBe('وسائل التواصل الاجتماعي')
      expect(ar.data.products.map((p) => p.name)).toContain('خدمات إنستغرام')
      expect(ar.data.products.map((p) => p.id)).toEqual([12, 17, 18, 19, 20])
    })
  })

  describe('GET products/packages/{id}', () => {
    it('gives a package with its own purchase fields over the product ones', async () => {
      const prime = packageNamed('Prime Plus (1 month)')
      const { data } = await json(
        PackageDetailReplySchema,
        `/api/products/packages/${prime.id}?local=en`,
      )
      expect(data).toMatchObject({
        id: prime.id,
        name: 'Prime Plus (1 month)',
        type: 'subscription',
        product_id: 1,
        product_name: 'PUBG Mobile UC',
        number: 1,
        maximum_qut: 1, // the package's
        minimum_qut: 1, // the product's
        note: 'One subscription per account at a time.', // the package's
        th_party_api_id: 1, // the product's
        th_party_as7ab_api: 'pubg-mobile',
        company_price: 8.5,
        product_percentage: 5,
        available: true,
      })
      const ar = await json(PackageDetailReplySchema, `/api/products/packages/${prime.id}?local=ar`)
      expect(ar.data).toMatchObject({
        name: 'برايم بلس (شهر واحد)',
        product_name: 'شدات ببجي موبايل',
      })
      expect(ar.data.note).toBe('اشتراك واحد لكل حساب في الوقت نفسه.')
      const plain = packageNamed('60 UC')
      const inherited = await json(
        PackageDetailReplySchema,
        `/api/products/packages/${plain.id}?local=en`,
      )
      expect(inherited.data.note).toBe(
        'Enter your character ID. UC is added to your account within minutes.',
      )
      expect(inherited.data.maximum_qut).toBe(0)
    })

    it('takes requirements from the package when it has its own', async () => {
      const welkin = packageNamed('Blessing of the Welkin Moon')
      const { data } = await json(PackageDetailReplySchema, `/api/products/packages/${welkin.id}`)
      expect(data.requirements).toEqual([{ name: 'uid', label: 'UID' }])
      const crystals = packageNamed('60 Genesis Crystals')
      const other = await json(PackageDetailReplySchema, `/api/products/packages/${crystals.id}`)
      expect(other.data.requirements.map((r) => r.name)).toEqual(['uid', 'server'])
    })

    it('carries FREE_FIRE, TikTok and direct cases from product and package', async () => {
      const diamonds = packageNamed('100 Diamonds')
      const ff = await json(PackageDetailReplySchema, `/api/products/packages/${diamonds.id}`)
      expect(ff.data).toMatchObject({
        pkey: 'FREE_FIRE',
        require_player_number: true,
        product_id: 2,
      })
      const coins = packageNamed('70 Coins')
      const tiktok = await json(PackageDetailReplySchema, `/api/products/packages/${coins.id}`)
      expect(tiktok.data).toMatchObject({ is_tiktok: true, maximum_qut: 5, product_id: 12 })
      const direct = packageNamed('Alfa credit (any amount)')
      const alfa = await json(
        PackageDetailReplySchema,
        `/api/products/packages/${direct.id}?local=ar`,
      )
      expect(alfa.data).toMatchObject({ type: 'direct', maximum_qut: 50 })
      expect(alfa.data.requirements).toEqual([{ name: 'mobile_number', label: 'رقم ألفا' }])
    })

    it('marks packages that cannot be bought', async () => {
      const cp = packageNamed('2,400 CP')
      const off = await json(PackageDetailReplySchema, `/api/products/packages/${cp.id}`)
      expect(off.data).toMatchObject({
        is_available: false,
        available: false,
        force_unavailable: false,
      })
      const rp = packageNamed('575 RP')
      const ofProduct = await json(PackageDetailReplySchema, `/api/products/packages/${rp.id}`)
      // The package itself is on sale, but its product is not.
      expect(ofProduct.data).toMatchObject({
        is_available: true,
        available: false,
        force_unavailable: true,
      })
      const osn = packageNamed('OSN+ – 1 month')
      const forced = await json(PackageDetailReplySchema, `/api/products/packages/${osn.id}`)
      expect(forced.data).toMatchObject({ available: false, force_unavailable: true })
    })
  })

  it('answers unknown ids with 404 and a message in the request language', async () => {
    for (const [path, en, ar] of [
      ['/api/products/999', 'This product was not found.', 'هذا المنتج غير موجود.'],
      ['/api/products/abc', 'This product was not found.', 'هذا المنتج غير موجود.'],
      ['/api/products/999/packages', 'This product was not found.', 'هذا المنتج غير موجود.'],
      ['/api/products/packages/9999', 'This package was not found.', 'هذه الباقة غير موجودة.'],
      ['/api/products/packages/0', 'This package was not found.', 'هذه الباقة غير موجودة.'],
      ['/api/products/by-group/99', 'This group was not found.', 'هذه المجموعة غير موجودة.'],
    ] as const) {
      await notFound(`${path}?local=en`, en)
      await notFound(`${path}?local=ar`, ar)
      await notFound(path, en)
    }
  })

  describe('drawn images', () => {
    async function imagesInReplies() {
      const list = await json(ProductPageSchema, '/api/products?per_page=300')
      const detail = await json(ProductDetailReplySchema, '/api/products/37')
      const packages = await json(PackagePageSchema, '/api/products/1/packages')
      const group = await json(GroupReplySchema, '/api/products/by-group/2')
      return [
        ...list.data.map((p) => p.image!),
        ...detail.data.images.map((i) => i.image),
        ...packages.data.map((p) => p.image!),
        group.data.image!,
      ]
    }

    it("serves every image a reply names as a square WebP cached for a year, a group's as a small icon, and its drawing as SVG", async () => {
      const images = await imagesInReplies()
      expect(images.length).toBeGreaterThan(60)
      for (const image of images) {
        expect(image).toMatch(/\.[0-9a-f]{8}\.webp$/)
        const res = await get(image)
        expect(res.status, image).toBe(200)
        expect(res.headers.get('content-type'), image).toBe('image/webp')
        expect(res.headers.get('cache-control'), image).toBe(IMMUTABLE)
        const picture = await sharp(Buffer.from(await res.arrayBuffer())).metadata()
        // A group's is the icon of its chip on home, drawn at twice the 32 px it shows at.
        const size = image.includes('/group-') ? 64 : 400
        expect([picture.format, picture.width, picture.height], image).toEqual(['webp', size, size])
      }
      const drawing = await get(images[0]!.replace(/\.webp$/, '.svg'))
      expect(drawing.headers.get('content-type')).toMatch(/^image\/svg\+xml/)
      expect(await drawing.text()).toMatch(
        /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" width="400" height="400" viewBox="0 0 400 400"/,
      )
    })

    it('answers 304 to a revalidation and 404 to a stale or unknown name', async () => {
      const [image] = await imagesInReplies()
      const etag = (await get(image!)).headers.get('etag')
      expect(etag).toBeTruthy()
      const again = await get(image!, { headers: { 'if-none-match': etag! } })
      expect(again.status).toBe(304)
      const stale = image!.replace(/\.[0-9a-f]{8}\.webp$/, '.00000000.webp')
      for (const path of [
        stale,
        stale.replace(/\.webp$/, '.svg'),
        image!.replace(/\.webp$/, '.png'),
        '/media/catalogue/product-999.00000000.svg',
        '/media/catalogue/robot-1.00000000.svg',
        '/media/catalogue/product-1.svg',
        '/media/catalogue/../seed.ts',
      ]) {
        expect((await get(path)).status, path).toBe(404)
      }
    })

    it('changes the name when the picture changes', async () => {
      const before = (await json(ProductDetailReplySchema, '/api/products/5')).data.image!
      await ctx.db
        .updateTable('products')
        .set({ name_en: 'Fortnite V-Bucks <Gift> & "Co"' })
        .where('id', '=', 5)
        .execute()
      try {
        const after = (await json(ProductDetailReplySchema, '/api/products/5')).data.image!
        expect(after).not.toBe(before)
        expect((await get(before)).status).toBe(404)
        expect((await get(after)).status).toBe(200)
        const svg = await (await get(after.replace(/\.webp$/, '.svg'))).text()
        expect(svg).not.toContain('<Gift>')
        expect(svg).toContain('Fortnite V-Bucks &#60;Gift&#62; &#38; &#34;Co&#34;')
      } finally {
        await ctx.db
          .updateTable('products')
          .set({ name_en: 'Fortnite V-Bucks' })
          .where('id', '=', 5)
          .execute()
      }
    })
  })
})

describe('catalogue pictures', () => {
  it('escapes markup and drops characters XML forbids', () => {
    expect(escapeXml(`<script>alert('x')</script> & "q"\u0001`)).toBe(
      '&#60;script&#62;alert(&#39;x&#39;)&#60;/script&#62; &#38; &#34;q&#34;',
    )
    const svg = renderImage({
      kind: 'package',
      id: 9,
      number: 1,
      name_en: '<img src=x onerror=alert(1)>',
      name_ar: '</text><script>',
    })
    expect(svg).not.toMatch(/<img|<script|<\/text><script/)
    expect(svg.match(/<text/g)?.length).toBe(svg.match(/<\/text>/g)?.length)
  })

  it('is deterministic and reads its own names only', () => {
    const subject = { kind: 'product', id: 3, number: 1, name_en: 'A', name_ar: 'ب' } as const
    expect(renderImage(subject)).toBe(renderImage(subject))
    expect(parseImageName('product-3.0123abcd.svg')).toEqual({
      kind: 'product',
      id: 3,
      hash: '0123abcd',
      format: 'svg',
    })
    expect(parseImageName('gallery-12.0123abcd.webp')).toEqual({
      kind: 'gallery',
      id: 12,
      hash: '0123abcd',
      format: 'webp',
    })
    for (const name of [
      'product-0.0123abcd.svg',
      'product-3.0123ABCD.svg',
      'x-3.0123abcd.svg',
      'product-3.0123abcd.svg.gz',
      'product-3.0123abcd.png',
    ]) {
      expect(parseImageName(name), name).toBeUndefined()
    }
  })
})
