import sharp from 'sharp'
import { expect, it } from 'vitest'
import type { ChainWatcher } from '../adapters/chains'
import { watchOnce } from '../services/usdt-watcher'
import { describeEachDatabase } from '../test/context'
import { customer, order, packageId } from '../test/orders'

const TOKEN = 'metrics-secret-of-at-least-32-characters'

/** The value of one series in Prometheus text, 0 when it is not there yet. */
function value(text: string, series: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `))
  return line ? Number(line.slice(series.length + 1)) : 0
}

describeEachDatabase('metrics', (ctx) => {
  const app = () => ctx.appWith({ metricsToken: TOKEN })
  const scrape = async () => {
    const res = await app().request('/metrics', { headers: { authorization: `Bearer ${TOKEN}` } })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/)
    return res.text()
  }

  it('exists only with METRICS_TOKEN, and only for whoever sends it', async () => {
    expect((await ctx.app.request('/metrics')).status).toBe(404)
    expect((await app().request('/metrics')).status).toBe(401)
    const wrong = { authorization: `Bearer ${TOKEN.replace(/.$/, '!')}` }
    expect((await app().request('/metrics', { headers: wrong })).status).toBe(401)
    expect(await scrape()).toContain('# TYPE http_request_duration_seconds histogram')
  })

  it('counts an order, a top-up, requests by route and status, and 429s', async () => {
    const before = await scrape()
    const { token } = await customer(ctx, { balance: '100' })
    const pkg = await packageId(ctx, 27, 'iTunes $10')
    expect((await order(app(), token, { package_id: pkg })).status).toBe(200)
    // A second order with the first one's key is a replay, not another order.
    const key = 'metrics-replay-key'
    expect((await order(app(), token, { package_id: pkg }, { key })).status).toBe(200)
    expect((await order(app(), token, { package_id: pkg }, { key })).status).toBe(200)
    const poor = await customer(ctx, { balance: '0' })
    expect((await order(app(), poor.token, { package_id: pkg })).status).toBe(422)

    const form = new FormData()
    form.append('name', 'WHISH_MONEY')
    form.append('value', '50')
    const photo = await sharp({
      create: { width: 32, height: 32, channels: 3, background: '#36a' },
    })
      .png()
      .toBuffer()
    form.append('image', new Blob([new Uint8Array(photo)], { type: 'image/png' }), 'notice.png')
    const topUp = await app().request('/api/charging-processes', {
      method: 'POST',
      body: form,
      headers: { authorization: `Bearer ${token}` },
    })
    expect(topUp.status).toBe(200)

    // Sign-up calls from one address over its limit: 429.
    const limited = ctx.appWith({
      metricsToken: TOKEN,
      rateLimits: { ...ctx.config.rateLimits, signupsPerIp: 1 },
    })
    let refused = 0
    for (let i = 0; i < 3; i++) {
      const res = await limited.request(
        '/api/signup?validate=1',
        { method: 'POST', body: new FormData(), headers: { origin: 'http://localhost' } },
        { incoming: { socket: { remoteAddress: '198.51.100.99' } } },
      )
      if (res.status === 429) refused++
    }
    expect(refused).toBe(2)

    const after = await scrape()
    const delta = (series: string) => value(after, series) - value(before, series)
    expect(delta('orders_placed_total')).toBe(2)
    expect(delta('orders_failed_total{reason="balance"}')).toBe(1)
    expect(delta('top_ups{method="WHISH_MONEY",state="WAITING"}')).toBe(1)
    expect(
      delta(
        'http_request_duration_seconds_count{method="POST",route="/api/automated/get/packages",status="200"}',
      ),
    ).toBe(3)
    expect(delta('http_rate_limited_total{route="/api/signup"}')).toBe(refused)
    // The route's pattern, never the path: an order's id is not a label.
    expect(after).not.toMatch(/route="\/api\/orders\/\d+"/)
  })
  it("reports the USDT watcher's head block and when it last caught up", async () => {
    const watcher: ChainWatcher = {
      network: 'bep20',
      address: '0x' + '1a'.repeat(20),
      poll: async () => ({ transfers: [], cursor: 'bep20:4300', caughtUp: true, head: 4321n }),
    }
    const before = Date.now() / 1000
    await watchOnce(ctx.db, watcher, { rate: 89_500, now: () => new Date() })
    const text = await scrape()
    expect(value(text, 'usdt_watcher_head_block{network="bep20"}')).toBe(4321)
    const last = value(text, 'usdt_watcher_last_round_timestamp_seconds{network="bep20"}')
    expect(last).toBeGreaterThanOrEqual(before)
    expect(last).toBeLessThanOrEqual(Date.now() / 1000)
  })
})
