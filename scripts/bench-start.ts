/**
 * `npm run bench:start`: what each page's start costs the main thread, from Chrome traces.
 * Lighthouse's scores swing with the machine's load; a task's CPU time much less. Each run
 * opens a page cold (a new browser context: empty cache, no service worker) and traces it
 * until its network has been idle for 2 s, then reads the renderer's main thread:
 *
 * - main-thread CPU: the CPU time of all its tasks (what Lighthouse's table calls the same);
 * - longest task at 4x: the longest task's CPU time times the slowdown of a mid-range phone,
 *   as Lighthouse's mobile run counts it (goal: under 50 ms);
 * - blocking at 4x: each task's CPU time times the slowdown, less 50 ms, summed over the tasks
 *   after the first contentful paint: Lighthouse's TBT from the page's own work, without the
 *   time a busy machine makes a task wait;
 * - where the CPU time went (script, style and layout, paint, parsing, garbage collection).
 *
 * A/B: `START_URLS=http://127.0.0.1:8103,http://127.0.0.1:8104` measures servers already
 * running (started with DEMO=1 DEV_OUTBOX=1), run by run in turn; without it, the built app on
 * a server of its own. `START_PAGES=home,product` picks pages, `START_RUNS` the runs per page
 * (default 5), `START_SLOWDOWN` the factor (default 4). Medians. `BENCH_JSON=1` adds one JSON
 * line. Signed-in pages sign the demo customer in first (the development outbox).
 */
import { chromium, type Browser } from 'playwright'
import { PLAYWRIGHT_DISABLE_FEATURES } from './lib/chromium'
import { demoSession, median, returningBrowser, startServer } from './lib/server'
import type { TraceEvent } from './lib/trace'

export interface StartPage {
  name: string
  path: string
  signedIn?: boolean
}

export const PAGES: StartPage[] = [
  { name: 'home', path: '/' },
  { name: 'product', path: '/#/products/products-1/1' },
  { name: 'package', path: '/#/products/products-1/packages/1' },
  { name: 'search', path: '/#/search?q=card&page=1' },
  { name: 'group', path: '/#/groups/1' },
  { name: 'sign-in', path: '/#/sign-in' },
  { name: 'orders', path: '/#/Orders', signedIn: true },
  { name: 'wallet', path: '/#/wallet', signedIn: true },
  { name: 'charging', path: '/#/charging-the-wallet', signedIn: true },
]

const RUNS = Number(process.env.START_RUNS ?? 5)
const SLOWDOWN = Number(process.env.START_SLOWDOWN ?? 4)
const pages = PAGES.filter(({ name }) => process.env.START_PAGES?.split(',').includes(name) ?? true)

/**
 * What the main thread's time is spent on, by the trace's event names: an event counts with
 * the nearest of itself and its ancestors that has a kind (an SVG picture's whole document, its
 * layout and paint too, counts as the picture's).
 */
const KINDS: [string, RegExp][] = [
  ['svg pictures', /^(SVGImage::|IsolatedSVGDocumentHost)/],
  ['gc', /^(MajorGC|MinorGC|V8\.GC|BlinkGC|CppGC|ThreadState::)/],
  ['compile', /^(v8\.compile|V8\.Compile|v8\.parseOnBackground|V8\.ParseFunction|V8\.Parse)/],
  [
    'script',
    /^(v8\.|V8\.|EvaluateScript|FunctionCall|RunMicrotasks|TimerFire|FireAnimationFrame|EventDispatch|FireIdleCallback|PendingScript::ExecuteScriptBlock)/,
  ],
  [
    'style',
    /^(UpdateLayoutTree|Document::updateStyle|Document::recalcStyle|ParseAuthorStyleSheet)/,
  ],
  ['layout', /^(Layout|LocalFrameView::layout|LocalFrameView::performLayout)/],
  ['paint', /^(Paint|PrePaint|Layerize|Commit|CompositeLayers|Decode|ImageDecode|PaintImage)/],
  ['html', /^(ParseHTML|HTMLDocumentParser)/],
]

interface Run {
  cpu: number
  longest: number
  blocking: number
  fcp: number
  kinds: Record<string, number>
}

/** The main thread of the page's renderer (the one that navigated to `url`), from a trace. */
function readTrace(events: TraceEvent[], url: string): Run {
  const navigation = events.find(
    (e) => e.name === 'navigationStart' && e.args?.data?.documentLoaderURL?.startsWith(url),
  )
  if (!navigation) throw new Error(`no navigation to ${url} in the trace`)
  const { pid, tid } = navigation
  const thread = events
    .filter((e) => e.pid === pid && e.tid === tid && e.ph === 'X')
    .sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0))
  const isTask = (e: TraceEvent) =>
    e.name === 'RunTask' || e.name === 'ThreadControllerImpl::RunTask'
  const cpuOf = (e: TraceEvent) => (e.tdur ?? e.dur ?? 0) / 1000
  // Top-level tasks only (a nested run loop's task is inside another).
  const top: TraceEvent[] = []
  for (const task of thread.filter(isTask)) {
    const last = top[top.length - 1]
    if (last && task.ts < last.ts + (last.dur ?? 0)) continue
    top.push(task)
  }
  const fcp = events.find((e) => e.name === 'firstContentfulPaint' && e.pid === pid)?.ts ?? Infinity
  // Self time by kind: each event's CPU time less its children's.
  const kinds: Record<string, number> = {}
  const stack: { end: number; event: TraceEvent; kind?: string; children: number }[] = []
  const close = (until: number) => {
    while (stack.length && stack[stack.length - 1]!.end <= until) {
      const frame = stack.pop()!
      const kind = frame.kind ?? 'other'
      kinds[kind] = (kinds[kind] ?? 0) + Math.max(0, cpuOf(frame.event) - frame.children)
      if (stack.length) stack[stack.length - 1]!.children += cpuOf(frame.event)
    }
  }
  for (const e of thread) {
    close(e.ts)
    const parent = stack[stack.length - 1]?.kind
    const own = KINDS.find(([, re]) => re.test(e.name))?.[0]
    // A picture's or a collection's work is theirs whatever runs inside.
    const kind = parent === 'svg pictures' || parent === 'gc' ? parent : (own ?? parent)
    stack.push({
      end: e.ts + (e.dur ?? 0),
      event: e,
      kind: isTask(e) ? undefined : kind,
      children: 0,
    })
  }
  close(Infinity)
  return {
    cpu: top.reduce((sum, e) => sum + cpuOf(e), 0),
    longest: Math.max(0, ...top.map((e) => cpuOf(e) * SLOWDOWN)),
    blocking: top
      .filter((e) => e.ts >= fcp)
      .reduce((sum, e) => sum + Math.max(0, cpuOf(e) * SLOWDOWN - 50), 0),
    fcp: (fcp - navigation.ts) / 1000,
    kinds,
  }
}

const CATEGORIES = [
  'toplevel',
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'v8.execute',
  'v8',
  'blink.user_timing',
  'loading',
  'disabled-by-default-v8.gc',
  'blink',
]

async function measure(browser: Browser, base: string, page: StartPage, token?: string) {
  const context = await browser.newContext({
    viewport: { width: 412, height: 823 },
    deviceScaleFactor: 1.75,
    isMobile: true,
    hasTouch: true,
  })
  try {
    if (token) {
      await context.addCookies(returningBrowser(base))
      await context.addInitScript((value) => localStorage.setItem('token', value), token)
    }
    const tab = await context.newPage()
    await browser.startTracing(tab, { categories: CATEGORIES })
    await tab.goto(base + page.path, { waitUntil: 'load' })
    await tab.waitForLoadState('networkidle')
    await tab.waitForTimeout(2000)
    const trace = JSON.parse((await browser.stopTracing()).toString()) as {
      traceEvents: TraceEvent[]
    }
    return readTrace(trace.traceEvents, base + page.path)
  } finally {
    await context.close()
  }
}

const own = process.env.START_URLS
  ? undefined
  : await startServer(Number(process.env.BENCH_PORT ?? 4512), { DEV_OUTBOX: '1' })
const bases = own ? [own.url] : process.env.START_URLS!.split(',')
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', PLAYWRIGHT_DISABLE_FEATURES],
})
const figures: Record<string, unknown>[] = []
try {
  const tokens = new Map<string, string>()
  if (pages.some((page) => page.signedIn))
    for (const base of bases) tokens.set(base, await demoSession(base))
  const fmt = (n: number) => String(Math.round(n)).padStart(4)
  for (const page of pages) {
    const runs = new Map<string, Run[]>(bases.map((base) => [base, []]))
    // In turn: a moment of load touches every build alike.
    for (let i = 0; i < RUNS; i++)
      for (const base of bases)
        runs
          .get(base)!
          .push(await measure(browser, base, page, page.signedIn ? tokens.get(base) : undefined))
    for (const base of bases) {
      const list = runs.get(base)!
      const pick = (f: (run: Run) => number) => median(list.map(f))
      const kinds = Object.keys(list[0]!.kinds)
      const row = {
        bench: 'start',
        base,
        page: page.name,
        mainThreadCpuMs: Math.round(pick((r) => r.cpu)),
        longestTaskMs: Math.round(pick((r) => r.longest)),
        blockingMs: Math.round(pick((r) => r.blocking)),
        fcpMs: Math.round(pick((r) => r.fcp)),
        slowdown: SLOWDOWN,
      }
      figures.push(row)
      console.log(
        `${(bases.length > 1 ? base + ' ' : '') + page.name.padEnd(9)} main-thread CPU ${fmt(row.mainThreadCpuMs)} ms` +
          `  longest task ${fmt(row.longestTaskMs)} ms at ${SLOWDOWN}x  blocking ${fmt(row.blockingMs)} ms at ${SLOWDOWN}x` +
          `  (${kinds.map((kind) => `${kind} ${Math.round(pick((r) => r.kinds[kind] ?? 0))}`).join(', ')}; ` +
          `CPU ${list.map((r) => Math.round(r.cpu)).join(', ')}; median of ${RUNS})`,
      )
    }
  }
  if (process.env.BENCH_JSON === '1') console.log(JSON.stringify({ bench: 'start', figures }))
} finally {
  await browser.close()
  await own?.stop()
}
