import * as v from 'valibot'
import { expect, it } from 'vitest'
import { MessageReplySchema } from '../../src/contract/common'
import {
  AboutReplySchema,
  ContactReplySchema,
  SliderReplySchema,
  WebsiteInfoReplySchema,
  WebsiteInfoSchema,
} from '../../src/contract/site'
import { demoSeed } from '../demo/seed'
import { describeEachDatabase } from '../test/context'

describeEachDatabase('site content API', (ctx) => {
  const get = (path: string, init?: RequestInit) => ctx.app.request(path, init)

  it('GET /api/website/info carries the look as a JSON string', async () => {
    const res = await get('/api/website/info')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^application\/json/)
    const reply = v.parse(WebsiteInfoReplySchema, await res.json())
    const info = v.parse(WebsiteInfoSchema, JSON.parse(reply.website_info))
    expect(info).toEqual({
      ...demoSeed.websiteInfo,
      lbp_rate: ctx.config.lbpRate,
      time_zone: ctx.config.storeTimeZone,
    })
    expect(info.logo_url).toMatch(/^\/media\/logo\.[0-9a-f]{8}\.webp$/)
  })

  it('GET /api/slider/images lists images in order with same-origin paths', async () => {
    const res = await get('/api/slider/images')
    expect(res.status).toBe(200)
    const reply = v.parse(SliderReplySchema, await res.json())
    expect(reply.data.map((i) => i.image)).toEqual(demoSeed.sliderImages)
    expect(new Set(reply.data.map((i) => i.id)).size).toBe(reply.data.length)
    for (const { image } of reply.data) {
      const media = await get(image)
      expect(media.status).toBe(200)
      expect(media.headers.get('content-type')).toBe('image/webp')
    }
  })

  it('GET /api/about-us/info answers in the requested language', async () => {
    const en = v.parse(AboutReplySchema, await (await get('/api/about-us/info?local=en')).json())
    const ar = v.parse(AboutReplySchema, await (await get('/api/about-us/info?local=ar')).json())
    const fallback = v.parse(AboutReplySchema, await (await get('/api/about-us/info')).json())
    expect(en.data.about_us_text).toBe(demoSeed.about.text_en)
    expect(ar.data.about_us_text).toBe(demoSeed.about.text_ar)
    expect(ar.data.about_us_text).toMatch(/[\u0600-\u06FF]/)
    expect(fallback.data.about_us_text).toBe(demoSeed.about.text_en)
    expect(en.data.about_us_images.map((i) => i.image)).toEqual(demoSeed.aboutImages)
    expect(ar.data.about_us_images).toEqual(en.data.about_us_images)
  })

  it('GET /api/contact-us/info gives the contact details', async () => {
    const res = await get('/api/contact-us/info?local=ar')
    expect(res.status).toBe(200)
    const reply = v.parse(ContactReplySchema, await res.json())
    expect(reply.data).toEqual(demoSeed.contact)
  })

  it('marks public content as shareable for a short while', async () => {
    for (const path of [
      '/api/website/info',
      '/api/slider/images',
      '/api/about-us/info?local=en',
      '/api/contact-us/info?local=en',
    ]) {
      const res = await get(path)
      expect(res.headers.get('cache-control'), path).toBe('public, max-age=300')
    }
  })

  it('answers unknown API paths with a 404 JSON message in the request language', async () => {
    for (const [path, text] of [
      ['/api/nope', 'The requested resource was not found.'],
      ['/api/nope/deeper?local=ar', 'المورد المطلوب غير موجود.'],
      ['/api', 'The requested resource was not found.'],
    ] as const) {
      const res = await get(path)
      expect(res.status, path).toBe(404)
      expect(res.headers.get('cache-control'), path).toBe('no-store')
      expect(v.parse(MessageReplySchema, await res.json()).message).toBe(text)
    }
    const wrongMethod = await get('/api/website/info', { method: 'DELETE' })
    expect(wrongMethod.status).toBe(404)
    expect(v.parse(MessageReplySchema, await wrongMethod.json())).toBeTruthy()
  })

  it('sends the security headers on API, static and error replies', async () => {
    for (const path of ['/api/website/info', '/api/nope', '/', '/media/missing.svg']) {
      const res = await get(path)
      const csp = res.headers.get('content-security-policy') ?? ''
      expect(csp, path).toContain("default-src 'self'")
      // Scripts from the store itself, and inline ones only by their exact hashes.
      expect(csp, path).toMatch(/(^|; )script-src 'self'( 'sha256-[\w+/]+={0,2}')*;/)
      expect(csp, path).not.toMatch(/script-src[^;]*unsafe-inline/)
      expect(csp, path).toContain("frame-ancestors 'none'")
      expect(csp, path).toContain("object-src 'none'")
      expect(csp, path).toContain('https://*.googleapis.com')
      expect(res.headers.get('x-content-type-options'), path).toBe('nosniff')
      expect(res.headers.get('referrer-policy'), path).toBe('strict-origin-when-cross-origin')
      expect(res.headers.get('x-frame-options'), path).toBe('DENY')
      expect(res.headers.get('strict-transport-security'), path).toBeNull()
      expect(res.headers.get('x-request-id'), path).toBeTruthy()
    }
  })

  it('adds extra connect-src origins from the configuration', async () => {
    const app = ctx.appWith({ cspConnectSrc: ['https://api.example.com'] })
    const res = await app.request('/api/website/info')
    expect(res.headers.get('content-security-policy')).toContain(
      "connect-src 'self' https://api.example.com https://*.googleapis.com",
    )
  })

  it('sends HSTS only for requests that came over TLS', async () => {
    const viaProxy = { headers: { 'x-forwarded-proto': 'https' } }
    expect(
      (await get('/api/website/info', viaProxy)).headers.get('strict-transport-security'),
    ).toBeNull()
    const trusting = ctx.appWith({ trustProxy: 1 })
    const proxied = await trusting.request('/api/website/info', viaProxy)
    expect(proxied.headers.get('strict-transport-security')).toMatch(/^max-age=\d+/)
    const direct = await ctx.app.request('https://shop.example.com/api/website/info')
    expect(direct.headers.get('strict-transport-security')).toMatch(/^max-age=\d+/)
  })

  it('allows CORS only for configured origins', async () => {
    const app = ctx.appWith({ corsOrigins: ['https://shop.example.com'] })
    const preflight = await app.request('/api/messages', {
      method: 'OPTIONS',
      headers: {
        origin: 'https://shop.example.com',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, idempotency-key, content-type',
      },
    })
    expect(preflight.status).toBe(204)
    expect(preflight.headers.get('access-control-allow-origin')).toBe('https://shop.example.com')
    const allowed = (preflight.headers.get('access-control-allow-headers') ?? '').toLowerCase()
    for (const h of ['authorization', 'idempotency-key', 'content-type']) {
      expect(allowed).toContain(h)
    }

    const other = await app.request('/api/website/info', {
      headers: { origin: 'https://evil.example.com' },
    })
    expect(other.headers.get('access-control-allow-origin')).toBeNull()
    const none = await ctx.app.request('/api/website/info', {
      headers: { origin: 'https://shop.example.com' },
    })
    expect(none.headers.get('access-control-allow-origin')).toBeNull()
  })

  it('compresses large JSON replies when the client accepts gzip', async () => {
    // Enough text to pass the compression threshold.
    await ctx.db
      .updateTable('about_us')
      .set({ text_en: '<p>' + 'Fast delivery. '.repeat(200) + '</p>' })
      .where('id', '=', 1)
      .execute()
    try {
      const res = await get('/api/about-us/info?local=en', {
        headers: { 'accept-encoding': 'gzip' },
      })
      expect(res.headers.get('content-encoding')).toBe('gzip')
      const text = await new Response(res.body!.pipeThrough(new DecompressionStream('gzip'))).text()
      expect(v.parse(AboutReplySchema, JSON.parse(text)).data.about_us_text).toContain(
        'Fast delivery.',
      )
    } finally {
      await ctx.db
        .updateTable('about_us')
        .set({ text_en: demoSeed.about.text_en })
        .where('id', '=', 1)
        .execute()
    }
  })

  it('answers 500 with a generic JSON message when something breaks, and keeps serving', async () => {
    const logged: string[] = []
    const { createApp } = await import('../app')
    const { createLogger } = await import('../log')
    const broken = createApp({
      db: ctx.db,
      config: ctx.config,
      logger: createLogger('error', (line) => logged.push(line)),
    })
    // A database query on a table that does not exist stands in for any unexpected failure.
    await ctx.db.schema.alterTable('slider_images').renameTo('slider_images_away').execute()
    try {
      const res = await broken.request('/api/slider/images?local=ar')
      expect(res.status).toBe(500)
      expect(res.headers.get('cache-control')).toBe('no-store')
      const reply = v.parse(MessageReplySchema, await res.json())
      expect(reply.message).toBe('حدث خطأ من جهتنا. يُرجى المحاولة مرة أخرى لاحقًا.')
      expect(JSON.stringify(reply)).not.toMatch(/slider_images/)
      expect(logged.some((l) => JSON.parse(l).msg === 'unhandled error')).toBe(true)
    } finally {
      await ctx.db.schema.alterTable('slider_images_away').renameTo('slider_images').execute()
    }
    expect((await broken.request('/api/slider/images')).status).toBe(200)
  })
})
