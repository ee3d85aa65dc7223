/**
 * `npm run bench:offline`: a warm offline relaunch. One online visit installs the service
 * worker and saves the catalogue; then, with the network off and the CPU slowed 4x (Chrome's
 * own throttling), the store is opened again in a new tab, OFFLINE_RUNS times (default 5).
 * Prints the median time until the first product card is on screen and the median LCP, both
 * from the navigation's start. `BENCH_JSON=1` adds one JSON line.
 */
import { chromium } from 'playwright'
import { median, startServer } from './lib/server'

const RUNS = Number(process.env.OFFLINE_RUNS ?? 5)
const CPU_SLOWDOWN = Number(process.env.OFFLINE_CPU ?? 4)

const server = await startServer(Number(process.env.BENCH_PORT ?? 4511))
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
})
try {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } })
  const first = await context.newPage()
  await first.goto(server.url)
  await first.evaluate(() => navigator.serviceWorker.ready)
  await first.waitForFunction(() => !!navigator.serviceWorker.controller)
  // A visit under the worker's control: the catalogue is saved, the data are cached.
  await first.reload()
  await first.getByRole('list', { name: 'Products' }).getByRole('listitem').first().waitFor()
  await first.close()

  await context.setOffline(true)
  const shown: number[] = []
  const lcps: number[] = []
  for (let i = 0; i < RUNS; i++) {
    const page = await context.newPage()
    const cdp = await context.newCDPSession(page)
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN })
    await page.addInitScript(() => {
      const win = window as unknown as { lcp: number }
      win.lcp = 0
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) win.lcp = entry.startTime
      }).observe({ type: 'largest-contentful-paint', buffered: true })
    })
    await page.goto(server.url)
    await page.getByRole('list', { name: 'Products' }).getByRole('listitem').first().waitFor()
    shown.push(await page.evaluate(() => performance.now()))
    // LCP is final at the first input or when the page is hidden; a short wait settles it.
    await page.waitForTimeout(1000)
    lcps.push(await page.evaluate(() => (window as unknown as { lcp: number }).lcp))
    await page.close()
  }
  const row = {
    bench: 'offline',
    catalogueMs: Math.round(median(shown)),
    lcpMs: Math.round(median(lcps)),
    cpuSlowdown: CPU_SLOWDOWN,
    runs: RUNS,
  }
  console.log(
    `warm offline start (CPU ${CPU_SLOWDOWN}x, network off): catalogue on screen ${row.catalogueMs} ms, ` +
      `LCP ${row.lcpMs} ms (median of ${RUNS}; catalogue ${shown.map(Math.round).join(', ')} ms)`,
  )
  if (process.env.BENCH_JSON === '1') console.log(JSON.stringify(row))
} finally {
  await browser.close()
  await server.stop()
}
