/**
 * Where the start's main-thread time goes: one page opened in Chromium (no throttling) with a
 * Chrome trace, `BENCH_RUNS` times (5), and the renderer's main thread summed per trace event
 * (each event's own CPU time, less its children's). Prints the median main-thread CPU, the
 * mean time V8 spent parsing and compiling there, and the events that took the most.
 *
 *   npm run bench:trace -- /#/Orders signed-in
 *
 * The trace's own cost inflates every figure by about a third: compare runs of this script
 * only, on one build against another, in one hour (docs/performance.md, Method).
 *
 * Playwright's DevTools connection costs the page work of its own: V8 then records a detailed
 * stack for every `Error` made, and one made while the entry's top level runs (React DOM makes
 * four as it loads) has V8 parse React DOM and the whole entry again for their source positions
 * (`V8.CollectSourcePositions`, about 40 ms here). Neither Lighthouse's connection nor a phone
 * does it, so it is left out of the figures and printed apart.
 */
import { chromium } from 'playwright'
import { PLAYWRIGHT_DISABLE_FEATURES } from './lib/chromium'
import { boundedInt, demoSession, median, returningBrowser, startServer } from './lib/server'
import { pageMainThread, taskTimes, type TraceEvent } from './lib/trace'

const path = process.argv[2] ?? '/'
const signedIn = process.argv[3] === 'signed-in'
const RUNS = boundedInt('BENCH_RUNS', 5, 1, 50)
const CATEGORIES = [
  '__metadata',
  'toplevel',
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'blink',
  'loading',
  'v8',
  'v8.execute',
  'disabled-by-default-v8.compile',
]
const COMPILE = /^V8\.(Parse|PreParse|Compile)/
/** The parse for source positions that only Playwright's DevTools connection causes here. */
const INSPECTOR_REPARSE = 'V8.CollectSourcePositions'

/** Each event's own CPU time on the busiest renderer main thread, by name (and script). */
function selfTimes(events: TraceEvent[]): {
  cpu: number
  inspector: number
  byName: Map<string, number>
} {
  const busiest = pageMainThread(events)
  busiest.sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0))
  const byName = new Map<string, number>()
  const open: { event: TraceEvent; children: number }[] = []
  let inspector = 0
  const close = (until: number) => {
    for (let top = open.at(-1); top && top.event.ts + (top.event.dur ?? 0) <= until;) {
      open.pop()
      const { event, children } = top
      const own = event.tdur ?? event.dur ?? 0
      // What runs inside the reparse is named after it: it is not the page's own work.
      const inReparse = open.some((o) => o.event.name === INSPECTOR_REPARSE)
      if (event.name === INSPECTOR_REPARSE && !inReparse) inspector += own / 1000
      const script = event.args?.data?.url?.replace(/.*\//, '')
      const counted = inReparse
        ? INSPECTOR_REPARSE
        : script
          ? `${event.name} ${script}`
          : event.name
      byName.set(counted, (byName.get(counted) ?? 0) + (own - children) / 1000)
      top = open.at(-1)
      if (top) top.children += own
    }
  }
  for (const event of busiest) {
    close(event.ts)
    // Only what runs inside a task: the rest are markers.
    if (open.length || event.name === 'RunTask') open.push({ event, children: 0 })
  }
  close(Infinity)
  const cpu = taskTimes(busiest).reduce((sum, ms) => sum + ms, 0) - inspector
  byName.delete(INSPECTOR_REPARSE)
  return { cpu, inspector, byName }
}

const server = await startServer(boundedInt('BENCH_PORT', 4530, 1024, 65535), { DEV_OUTBOX: '1' })
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', PLAYWRIGHT_DISABLE_FEATURES],
})
try {
  const token = signedIn ? await demoSession(server.url) : ''
  const cpu: number[] = []
  const inspector: number[] = []
  const total = new Map<string, number>()
  for (let run = 0; run < RUNS; run++) {
    const context = await browser.newContext({ viewport: { width: 412, height: 823 } })
    const page = await context.newPage()
    if (token) {
      // A file of the store that runs no script: the session is in place before the page starts.
      await context.addCookies(returningBrowser(server.url))
      await page.goto(`${server.url}/favicon.svg`)
      await page.evaluate((value) => localStorage.setItem('token', value), token)
    }
    const cdp = await context.newCDPSession(page)
    const events: TraceEvent[] = []
    cdp.on('Tracing.dataCollected', ({ value }) =>
      events.push(...(value as unknown as TraceEvent[])),
    )
    const complete = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve))
    await cdp.send('Tracing.start', { traceConfig: { includedCategories: CATEGORIES } })
    await page.goto(`${server.url}${path}`)
    // The idle pieces, the service worker's start and the persisted cache's write come after.
    await page.waitForTimeout(5_000)
    await cdp.send('Tracing.end')
    await complete
    const times = selfTimes(events)
    cpu.push(times.cpu)
    inspector.push(times.inspector)
    for (const [name, ms] of times.byName) total.set(name, (total.get(name) ?? 0) + ms / RUNS)
    await context.close()
  }
  const compile = [...total].filter(([name]) => COMPILE.test(name)).reduce((s, [, ms]) => s + ms, 0)
  console.log(
    `${path}${signedIn ? ' signed in' : ''}: main-thread CPU ${Math.round(median(cpu))} ms ` +
      `(median of ${RUNS}: ${cpu.map(Math.round).join(', ')}), V8 parse and compile ${compile.toFixed(1)} ms (mean); ` +
      `left out: ${Math.round(median(inspector))} ms parsing again for Playwright's DevTools (median)`,
  )
  for (const [name, ms] of [...total].sort((a, b) => b[1] - a[1]).slice(0, 15))
    console.log(`  ${ms.toFixed(1).padStart(6)} ms  ${name}`)
} finally {
  await browser.close()
  await server.stop()
}
