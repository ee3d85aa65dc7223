import { expect, test, type Locator } from '@playwright/test'
import { savedQueryCache, storefrontSettled, switchToArabic, waitForServiceWorker } from './support'

test('scrolling the home grid loads every product and then stops', async ({ page, request }) => {
  const total = (
    (await (await request.get('/api/products?per_page=1')).json()) as { total: number }
  ).total
  expect(total).toBeGreaterThanOrEqual(40)
  const sizes: number[] = []
  page.on('request', (r) => {
    const url = new URL(r.url())
    if (url.pathname === '/api/products' && !url.searchParams.has('search'))
      sizes.push(Number(url.searchParams.get('per_page')))
  })
  await page.goto('/')
  const grid = page.getByRole('list', { name: 'Products' })
  await expect(grid.getByRole('listitem')).toHaveCount(15)
  // Each wheel brings the end of the list near; the grid grows until it holds every product.
  await expect(async () => {
    await page.mouse.wheel(0, 20_000)
    await expect(grid.getByRole('listitem')).toHaveCount(total, { timeout: 1000 })
  }).toPass()
  // Scrolled to the end once more, then somewhere else: a request the end of the list would
  // still make has been made by the time the next page is on screen.
  await page.mouse.wheel(0, 20_000)
  await page.getByRole('link', { name: 'About us' }).first().click()
  await expect(page.getByRole('heading', { name: 'About us' })).toBeVisible()
  // The first 15 came with the page.
  expect(sizes).toEqual([30, 45, 60].filter((size) => size - 15 < total))
})

test("a first visit's home comes with the page: no API round trip before it paints", async ({
  page,
}) => {
  const asked: string[] = []
  page.on('request', (r) => {
    const url = new URL(r.url())
    if (url.pathname.startsWith('/api/')) asked.push(url.pathname)
  })
  const loads: string[] = []
  page.on('request', (r) => {
    if (['image', 'script'].includes(r.resourceType()))
      loads.push(`${r.resourceType()} ${new URL(r.url()).pathname}`)
  })
  await page.goto('/')
  await expect(page.getByRole('list', { name: 'Products' }).getByRole('listitem')).toHaveCount(15)
  await expect(page.getByRole('region', { name: 'Offers' }).locator('img').first()).toBeVisible()
  await expect(page.getByRole('banner').getByRole('img', { name: 'Wallet Store' })).toBeVisible()
  expect(asked.filter((path) => /^\/api\/(products|website|slider)/.test(path))).toEqual([])
  // The first slide was asked for by the page itself, once, before the storefront's scripts.
  await storefrontSettled(page)
  const slider = (await (await page.request.get('/api/slider/images')).json()) as {
    data: { image: string }[]
  }
  const slideLoad = `image ${slider.data[0]!.image}`
  const slide = loads.indexOf(slideLoad)
  expect(slide).toBeGreaterThanOrEqual(0)
  expect(slide).toBeLessThan(loads.findIndex((load) => load.startsWith('script ')))
  expect(loads.lastIndexOf(slideLoad)).toBe(slide)

  // In Arabic the products are asked for in Arabic; the rest still comes with the page.
  asked.length = 0
  await page.evaluate(() => localStorage.setItem('language', 'ar'))
  await page.goto('about:blank')
  await page.goto('/')
  await expect(page.getByRole('list', { name: 'المنتجات' }).getByRole('listitem')).toHaveCount(15)
  expect(asked.filter((path) => /^\/api\/(website|slider)/.test(path))).toEqual([])
})

test.describe('on a phone', () => {
  // A phone's browser: before the page's viewport is read, its page would be 980 px wide.
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true })

  test("home asks for its first screen's pictures, and for the others as they come near", async ({
    page,
  }) => {
    const { data: products } = (await (
      await page.request.get('/api/products?local=en&page=1&per_page=15')
    ).json()) as { data: { image: string }[] }
    const { data: slides } = (await (await page.request.get('/api/slider/images')).json()) as {
      data: { image: string }[]
    }
    const reply = (await (await page.request.get('/api/website/info')).json()) as {
      website_info: string
    }
    const info = JSON.parse(reply.website_info) as { footer_bg_image: string }
    const footerPicture = new URL(info.footer_bg_image, 'http://any').pathname
    const asked: string[] = []
    page.on('request', (r) => {
      if (r.resourceType() === 'image') asked.push(new URL(r.url()).pathname)
    })
    await page.goto('/')
    const cards = page.getByRole('list', { name: 'Products' }).getByRole('listitem')
    await expect(cards).toHaveCount(15)
    const shown = (picture: Locator) =>
      expect.poll(() => picture.evaluate((img: HTMLImageElement) => img.naturalWidth))
    await shown(cards.first().locator('img')).toBe(400)
    await page.waitForLoadState('networkidle')
    const footer = page.getByRole('contentinfo')
    await expect(footer.getByRole('heading', { name: 'Follow us' })).toBeAttached()
    // The first screen's cards and the next row; not the 14th card, the other slides nor the
    // footer's background.
    const last = new URL(products[13]!.image, page.url()).pathname
    expect(
      asked.filter((path) => path.startsWith('/media/catalogue/product-')).length,
    ).toBeLessThanOrEqual(6)
    expect(asked).not.toContain(last)
    for (const slide of slides.slice(1))
      expect(asked).not.toContain(new URL(slide.image, page.url()).pathname)
    expect(asked).not.toContain(footerPicture)

    await cards.nth(13).scrollIntoViewIfNeeded()
    await shown(cards.nth(13).locator('img')).toBe(400)
    expect(asked.filter((path) => path === last)).toHaveLength(1)
    await page.evaluate(() => window.scrollTo(0, 0))
    // The slides come as the copy a phone's screen needs: 480 px of their 1,200.
    const offers = page.getByRole('region', { name: 'Offers' }).locator('img')
    const source = (slide: Locator) =>
      expect.poll(() => slide.evaluate((img: HTMLImageElement) => img.complete && img.currentSrc))
    await source(offers.first()).toMatch(/\/slide-[\w.-]+\.webp\?w=480$/)
    await page.getByRole('button', { name: 'Show slide 2 of 3' }).click()
    await source(offers.nth(1)).toMatch(/\/slide-[\w.-]+\.webp\?w=480$/)
    await footer.scrollIntoViewIfNeeded()
    await expect.poll(() => asked).toContain(footerPicture)
    await expect(footer).toHaveCSS('background-image', new RegExp(footerPicture))
  })
})

test.describe(() => {
  // The replies below stand in for the server's; the service worker would answer from its own.
  test.use({ serviceWorkers: 'block' })

  test('a catalogue larger than the largest page (300) is paged through to its end', async ({
    page,
    request,
  }) => {
    test.slow()
    // The store's products, repeated to 640, served as the server pages them: at most 300 a page.
    const { data: real } = (await (await request.get('/api/products?per_page=300')).json()) as {
      data: Record<string, unknown>[]
    }
    const total = 640
    const all = Array.from({ length: total }, (_, i) => ({
      ...real[i % real.length],
      id: 10_000 + i,
      name: `Product ${i + 1}`,
      available: 1,
    }))
    const asked: string[] = []
    await page.route(/\/api\/products\?/, async (route) => {
      const url = new URL(route.request().url())
      const perPage = Math.min(Number(url.searchParams.get('per_page')), 300)
      const number = Number(url.searchParams.get('page'))
      asked.push(`${number}x${perPage}`)
      const start = (number - 1) * perPage
      await route.fulfill({
        json: {
          data: all.slice(start, start + perPage),
          total,
          per_page: perPage,
          current_page: number,
          last_page: Math.ceil(total / perPage),
        },
      })
    })
    await page.goto('/')
    const grid = page.getByRole('list', { name: 'Products' })
    await expect(grid.getByRole('listitem')).toHaveCount(15)
    await expect(async () => {
      await page.mouse.wheel(0, 100_000)
      await expect(grid.getByRole('listitem')).toHaveCount(total, { timeout: 200 })
    }).toPass({ intervals: [50], timeout: 90_000 })
    await expect(grid.getByRole('listitem').last()).toContainText('Product 640')
    // The end reached: nothing more is asked for however far it is scrolled.
    const made = asked.length
    await page.mouse.wheel(0, 100_000)
    await page.getByRole('link', { name: 'About us' }).first().click()
    await expect(page.getByRole('heading', { name: 'About us' })).toBeVisible()
    expect(asked.length).toBe(made)
    expect(asked).toContain('1x300')
    expect(asked).toContain('2x300')
    expect(asked).toContain('3x300')
    expect(asked.filter((call) => !call.startsWith('1x'))).toEqual(['2x300', '3x300'])
  })
})

test('unavailable products are greyed, labelled and cannot be opened', async ({ page }) => {
  await page.goto('/#/search?q=League&page=1')
  const card = page.getByRole('listitem').filter({ hasText: 'League of Legends RP' })
  await expect(card).toContainText('Unavailable')
  await expect(card.getByRole('link')).toHaveCount(0)

  await page.goto('/#/search?q=OSN&page=1')
  await expect(page.getByRole('listitem').filter({ hasText: 'OSN+' })).toContainText('Unavailable')

  // Opened by its address anyway: the product-unavailable dialog, whose okay goes home.
  await page.goto('/#/products/products-4/43')
  const dialog = page.getByRole('dialog')
  await expect(dialog).toContainText('Sorry, this product is currently unavailable.')
  await dialog.getByRole('button', { name: 'Okay' }).click()
  await expect(page).toHaveURL(/#\/$/)
})

test('product to package, an unavailable package, and an entry that merges to another product', async ({
  page,
  request,
}) => {
  await page.goto('/')
  await page
    .getByRole('link', { name: /PUBG Mobile UC/ })
    .first()
    .click()
  await expect(page.getByRole('heading', { level: 1, name: 'PUBG Mobile UC' })).toBeVisible()
  await page.getByRole('link', { name: /^60 UC/ }).click()
  await expect(page).toHaveURL(/#\/products\/products-1\/packages\/1$/)
  await expect(page.getByRole('heading', { level: 1, name: '60 UC' })).toBeVisible()

  await page.goto('/#/products/products-1/3')
  const unavailable = page.getByRole('listitem').filter({ hasText: '2,400 CP' })
  await expect(unavailable).toContainText('Unavailable')
  await expect(unavailable.getByRole('link')).toHaveCount(0)
  // Opened by its address anyway: the item-unavailable dialog, which offers to go back.
  const reply = await request.get('/api/products/3/packages?local=en&page=1&per_page=300')
  const { data } = (await reply.json()) as { data: { id: number; name: string }[] }
  const id = data.find((entry) => entry.name === '2,400 CP')!.id
  await page.goto(`/#/products/products-1/packages/${id}`)
  const dialog = page.getByRole('dialog')
  await expect(dialog).toContainText('This item is currently unavailable.')
  await dialog.getByRole('button', { name: 'Go back' }).click()
  await expect(page).toHaveURL(/#\/products\/products-1\/3$/)

  await page.goto('/#/products/products-1/4')
  await page.getByRole('link', { name: /Roblox Gift Card \(code\)/ }).click()
  await expect(page).toHaveURL(/#\/products\/products-4\/32$/)
  await expect(page.getByRole('heading', { level: 1, name: 'Roblox Gift Card' })).toBeVisible()
})

test('search: results on two pages, and no results', async ({ page }) => {
  await page.goto('/')
  await page.getByRole('searchbox', { name: 'Search products' }).fill('card')
  await page.keyboard.press('Enter')
  await expect(page.getByRole('heading', { name: 'Results for “card”' })).toBeVisible()
  const results = page.getByRole('list', { name: 'Search results' })
  await expect(results.getByRole('listitem')).toHaveCount(15)
  await page.getByRole('link', { name: 'Page 2' }).click()
  await expect(page).toHaveURL(/page=2/)
  await expect(results.getByRole('listitem')).toHaveCount(1)
  await expect(page.getByRole('link', { name: 'Page 2' })).toHaveAttribute('aria-current', 'page')

  await page.goto('/#/search?q=zzzz&page=1')
  await expect(page.getByText('There are no items to show')).toBeVisible()
})

const GROUPS = {
  en: { nav: 'Groups', popular: 'Popular games', social: 'Social media', more: 'More in' },
  ar: {
    nav: 'المجموعات',
    popular: 'الألعاب الأكثر رواجًا',
    social: 'وسائل التواصل الاجتماعي',
    more: 'المزيد في',
  },
}

for (const language of ['en', 'ar'] as const) {
  test(`home shows the groups, a group opens its products and a product links to its group, ${language}`, async ({
    page,
  }) => {
    const words = GROUPS[language]
    await page.setViewportSize({ width: 390, height: 844 })
    await page.addInitScript((lang) => localStorage.setItem('language', lang), language)
    await page.goto('/')
    const groups = page.getByRole('navigation', { name: words.nav })
    await expect(groups.getByRole('link')).toHaveText([words.popular, words.social])
    // Each chip shows its whole name (the row scrolls instead).
    expect(
      await groups
        .getByRole('link')
        .evaluateAll((links) => links.filter((link) => link.scrollWidth > link.clientWidth).length),
    ).toBe(0)
    await groups.getByRole('link', { name: words.social }).click()
    await expect(page).toHaveURL(/#\/groups\/2$/)
    await expect(page.getByRole('heading', { level: 1, name: words.social })).toBeVisible()
    await expect(page.getByRole('list', { name: words.social }).getByRole('listitem')).toHaveCount(
      5,
    )
    await page.goto('/#/products/products-1/1')
    await page.getByRole('link', { name: `${words.more} ${words.popular}` }).click()
    await expect(page.getByRole('heading', { level: 1, name: words.popular })).toBeVisible()
    await expect(page.getByRole('list', { name: words.popular }).getByRole('listitem')).toHaveCount(
      5,
    )
  })
}

test('what was seen online stays browsable offline, marked as saved', async ({ page, context }) => {
  await page.goto('/')
  await waitForServiceWorker(page)
  await expect(page.getByRole('list', { name: 'Products' }).getByRole('listitem')).toHaveCount(15)
  const groups = page.getByRole('navigation', { name: 'Groups' })
  await groups.getByRole('link', { name: 'Social media' }).click()
  await expect(page.getByRole('list', { name: 'Social media' }).getByRole('listitem')).toHaveCount(
    5,
  )
  await page.getByRole('link', { name: 'Home' }).first().click()
  await page
    .getByRole('link', { name: /Free Fire Diamonds/ })
    .first()
    .click()
  await expect(page.getByRole('heading', { level: 1, name: 'Free Fire Diamonds' })).toBeVisible()
  await page.getByRole('link', { name: /^100 Diamonds/ }).click()
  await expect(page.getByRole('heading', { level: 1, name: '100 Diamonds' })).toBeVisible()
  // The persister writes the cache to IndexedDB shortly after; reload only once it holds it.
  await expect.poll(() => savedQueryCache(page)).toContain('"100 Diamonds"')

  await context.setOffline(true)
  await page.reload()
  await expect(page.getByRole('heading', { level: 1, name: '100 Diamonds' })).toBeVisible()
  await expect(page.getByText(/This is the catalogue saved on this device on/)).toBeVisible()
  await page.getByRole('link', { name: 'Free Fire Diamonds' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Free Fire Diamonds' })).toBeVisible()
  await page.getByRole('link', { name: 'Home' }).first().click()
  await expect(page.getByRole('list', { name: 'Products' }).getByRole('listitem')).toHaveCount(15)
  // A group seen before opens from home's row.
  await groups.getByRole('link', { name: 'Social media' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Social media' })).toBeVisible()
  await expect(page.getByRole('list', { name: 'Social media' }).getByRole('listitem')).toHaveCount(
    5,
  )
  await page.getByRole('link', { name: 'Home' }).first().click()
  // Images seen before come from the worker's cache.
  const image = page.getByRole('list', { name: 'Products' }).locator('img').first()
  await expect
    .poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth))
    .toBeGreaterThan(0)

  await page.goto('/#/products/products-7/46')
  await expect(
    page.getByText('This page is not saved on this device yet.', { exact: false }),
  ).toBeVisible()
  await page.goto('/#/search?q=pubg&page=1')
  await expect(
    page.getByText('Search needs an internet connection.', { exact: false }),
  ).toBeVisible()
})

test('in Arabic the catalogue is right-to-left with Arabic names', async ({ page }) => {
  await page.goto('/')
  await switchToArabic(page)
  await expect(page.getByRole('heading', { name: 'المنتجات' })).toBeVisible()
  await page
    .getByRole('link', { name: /شدات ببجي موبايل/ })
    .first()
    .click()
  await expect(page.getByRole('heading', { level: 1, name: 'شدات ببجي موبايل' })).toBeVisible()
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl')
  await expect(page.getByRole('heading', { name: 'الباقات' })).toBeVisible()
})

test("product 1's pictures are a gallery a keyboard can page through, in both languages", async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 })
  await page.goto('/#/products/products-1/1')
  // The page comes as the server's markup first; its buttons act once the storefront has taken
  // it over; a press before is made then (first-screen.spec.ts).
  await storefrontSettled(page)
  for (const words of [
    { name: 'PUBG Mobile UC', next: 'Next picture', previous: 'Previous picture', of: 'of' },
    { name: 'شدات ببجي موبايل', next: 'الصورة التالية', previous: 'الصورة السابقة', of: 'من' },
  ]) {
    if (words.of === 'من') await switchToArabic(page)
    const gallery = page.getByRole('region', { name: new RegExp(words.name) })
    const slides = gallery.getByRole('group')
    // The main picture, then the product's three.
    await expect(slides).toHaveCount(4)
    await expect(slides.locator('img')).toHaveCount(4)
    const first = slides.first().locator('img')
    await expect(first).toHaveAttribute('fetchpriority', 'high')
    await expect(slides.nth(1).locator('img')).toHaveAttribute('loading', 'lazy')
    const count = gallery.getByText(new RegExp(`^\\d ${words.of} 4$`))
    await expect(count).toHaveText(`1 ${words.of} 4`)
    const track = gallery.getByRole('list')
    /** Which slide fills the row: the one whose middle lies inside it. */
    const inView = () =>
      track.evaluate((row) => {
        const box = row.getBoundingClientRect()
        return [...row.children].findIndex((slide) => {
          const r = slide.getBoundingClientRect()
          const middle = (r.left + r.right) / 2
          return middle > box.left && middle < box.right
        })
      })
    // What the count says (it is read out) as the row scrolls past pictures on its way.
    const said = await count.evaluateHandle((p) => {
      const texts: string[] = []
      new MutationObserver(() => texts.push(p.textContent ?? '')).observe(p, {
        subtree: true,
        characterData: true,
        childList: true,
      })
      return texts
    })
    const next = gallery.getByRole('button', { name: words.next })
    await next.focus()
    // Each press as soon as its picture fills most of the row, its scroll not yet over.
    for (const index of [1, 2, 3]) {
      await page.keyboard.press('Enter')
      await expect(count).toHaveText(`${index + 1} ${words.of} 4`)
      await expect.poll(inView).toBe(index)
    }
    const sequence = await said.evaluate((texts) =>
      texts.filter((text, i) => text !== texts[i - 1]),
    )
    expect(sequence).toEqual([2, 3, 4].map((number) => `${number} ${words.of} 4`))
    await expect(next).toHaveAttribute('aria-disabled', 'true')
    // Every picture has loaded by now, each in its place.
    for (const img of await slides.locator('img').all())
      await expect
        .poll(() => img.evaluate((i: HTMLImageElement) => i.naturalWidth))
        .toBeGreaterThan(0)
    await page.keyboard.press('Shift+Tab')
    await expect(gallery.getByRole('button', { name: words.previous })).toBeFocused()
    await page.keyboard.press('Space')
    await expect(count).toHaveText(`3 ${words.of} 4`)
    await expect.poll(inView).toBe(2)
    // The row itself takes the keyboard too: Home goes back to the first picture.
    await track.focus()
    await page.keyboard.press('Home')
    await expect(count).toHaveText(`1 ${words.of} 4`)
    await expect.poll(inView).toBe(0)
  }
})

test("a product's other pictures are fetched when the customer reaches for its gallery, not with the page", async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 })
  const fetched: string[] = []
  page.on('request', (request) => {
    const name = /\/(gallery-\d)\.\w+\.webp$/.exec(request.url())?.[1]
    if (name) fetched.push(name)
  })
  await page.goto('/#/products/products-1/1')
  await storefrontSettled(page)
  const gallery = page.getByRole('region', { name: /PUBG Mobile UC/ })
  const pictures = gallery.getByRole('group').locator('img')
  // The page is loaded and the first picture shown: the three beside it still wait.
  await expect
    .poll(() => pictures.first().evaluate((img: HTMLImageElement) => img.naturalWidth))
    .toBeGreaterThan(0)
  await page.waitForLoadState('networkidle')
  expect(fetched).toEqual([])
  await gallery.getByRole('button', { name: 'Next picture' }).hover()
  await expect.poll(() => fetched.toSorted()).toEqual(['gallery-1', 'gallery-2', 'gallery-3'])
  for (const img of await pictures.all())
    await expect
      .poll(() => img.evaluate((i: HTMLImageElement) => i.naturalWidth))
      .toBeGreaterThan(0)
})

test("at 320 px the gallery's pictures and buttons stay beside the product's text", async ({
  page,
}) => {
  await page.setViewportSize({ width: 320, height: 640 })
  await page.goto('/#/products/products-1/1')
  for (const name of ['PUBG Mobile UC', 'شدات ببجي موبايل']) {
    if (name !== 'PUBG Mobile UC') await switchToArabic(page)
    const heading = page.getByRole('heading', { level: 1, name })
    await expect(heading).toBeVisible()
    const gallery = page.getByRole('region', { name: new RegExp(name) })
    const text = (await heading.locator('..').boundingBox())!
    // The row of pictures as shown (its other pictures scroll inside it), and the buttons.
    for (const part of [gallery.getByRole('list'), ...(await gallery.getByRole('button').all())]) {
      const box = (await part.boundingBox())!
      const overlap = Math.min(box.x + box.width, text.x + text.width) - Math.max(box.x, text.x)
      expect(overlap, name).toBeLessThanOrEqual(0)
    }
  }
})
