/**
 * `npm run bench:press`: how long a customer's first tap on home waits. Each run opens home
 * cold (a new browser context: empty cache, no service worker) on a phone's screen with touch,
 * the CPU slowed as a mid-range phone's (Chrome's throttle, `PRESS_SLOWDOWN`, default 4), waits
 * for the first slide's paint and then `PRESS_AFTER_MS` (default 1,000: a customer who taps a
 * second after the page shows), taps the first product's card and reads, in the page, the time
 * from the touch to the first frame that shows the product's page (its name as the heading),
 * and to the first that shows its packages.
 *
 * Home's storefront starts at the customer's first use or a few seconds after the paint
 * (docs/architecture.md, The first load): `PRESS_AFTER_MS=6000` taps a storefront that has
 * started, and has loaded the router (5 s after the page opened) and then, once the browser was
 * idle, the product page's code. A/B:
 * `PRESS_URLS=http://127.0.0.1:8103,http://127.0.0.1:8104` measures servers already running
 * (with DEMO=1), run by run in turn; without it, the built app on a server of its own.
 * `PRESS_RUNS` runs per server (default 5). Medians. `PRESS_RTT_MS` adds a phone network's
 * round trip to every request (Chrome's network throttle; 150 is Lighthouse's mobile default)
 * from the slide's paint on, where each file asked for after the tap costs a round trip.
 */
import { chromium } from 'playwright'
import { PLAYWRIGHT_DISABLE_FEATURES } from './lib/chromium'
import { boundedInt, median, startServer } from './lib/server'

const RUNS = boundedInt('PRESS_RUNS', 5, 1, 50)
const SLOWDOWN = boundedInt('PRESS_SLOWDOWN', 4, 1, 20)
const AFTER_MS = boundedInt('PRESS_AFTER_MS', 1000, 0, 60_000)
const RTT_MS = boundedInt('PRESS_RTT_MS', 0, 0, 2000)

const own = process.env.PRESS_URLS
  ? undefined
  : await startServer(Number(process.env.BENCH_PORT ?? 4512))
const urls = process.env.PRESS_URLS?.split(',') ?? [own!.url]
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [PLAYWRIGHT_DISABLE_FEATURES],
})

/**
 * One run: the milliseconds from the touch to the product's page on screen (its name as the
 * heading), and to its packages, what the customer taps next.
 */
async function press(url: string): Promise<[named: number, packages: number]> {
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
  })
  try {
    const page = await context.newPage()
    const cdp = await context.newCDPSession(page)
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: SLOWDOWN })
    await page.goto(url)
    const card = page.getByRole('list', { name: 'Products' }).getByRole('link').first()
    const name = (await card.innerText()).trim()
    // The slide painted (its picture loaded and decoded), then the customer reads a while.
    await page.waitForFunction(() =>
      [...document.images].some((image) => image.complete && image.naturalWidth > 0),
    )
    if (RTT_MS)
      await cdp.send('Network.emulateNetworkConditions', {
        offline: false,
        latency: RTT_MS,
        downloadThroughput: -1,
        uploadThroughput: -1,
      })
    await page.waitForTimeout(AFTER_MS)
    // A string (the bundler's helpers for named functions do not exist in the page), which
    // returns at once: the promise is read after the tap.
    await page.evaluate(`window.pressShown = new Promise((resolve) => {
      let touched = 0, named = 0
      addEventListener('touchstart', () => (touched ||= performance.now()), { capture: true })
      requestAnimationFrame(function frame() {
        const heading = document.querySelector('h1')
        if (touched && !named && heading?.textContent?.trim() === ${JSON.stringify(name)})
          named = performance.now() - touched
        if (named && document.querySelector('a[href*="/packages/"]'))
          return resolve([named, performance.now() - touched])
        requestAnimationFrame(frame)
      })
    }), 0`)
    await card.tap()
    return await page.evaluate<[number, number]>('window.pressShown')
  } finally {
    await context.close()
  }
}

try {
  const times = urls.map(() => [] as [number, number][])
  for (let run = 0; run < RUNS; run++)
    for (const [i, url] of urls.entries()) times[i]!.push(await press(url))
  for (const [i, url] of urls.entries()) {
    const named = times[i]!.map(([at]) => Math.round(at))
    const packages = times[i]!.map(([, at]) => Math.round(at))
    console.log(
      `first press ${url}  product page in ${median(named)} ms, its packages in ${median(packages)} ms` +
        `  (median of ${RUNS}; runs ${named.join(', ')}; packages ${packages.join(', ')};` +
        ` CPU ${SLOWDOWN}x,` +
        (RTT_MS ? ` round trip ${RTT_MS} ms,` : '') +
        ` tapped ${AFTER_MS} ms after the slide)`,
    )
  }
} finally {
  await browser.close()
  await own?.stop()
}
