/**
 * Lighthouse 12.2.3, mobile defaults (simulated slow 4G, CPU slowed 4x), against the built app
 * served by the real server: the home page, a product page, a package's order form, the
 * orders and wallet pages of the demo customer signed in (its session, and the device's time
 * zone as the storefront keeps it, put in the browser before the run), the product page of a
 * visitor who chose Arabic (the language kept as the storefront keeps it) and the signed-in
 * customer's home (`home-in`), 5 cold runs each. Prints
 * the median performance score, LCP, TBT, CLS, total bytes and this machine's benchmarkIndex
 * (its speed swings; compare only figures from one run).
 *
 * Then the same pages with the CPU slowdown scaled to a mid-tier phone: Chrome DevTools
 * calibrates a mid-tier phone (a Pixel 5) at a benchmarkIndex of 1000, so the slowdown is this
 * machine's median benchmarkIndex / 1000 (at least 1). `LIGHTHOUSE_RUNS` sets the runs per
 * page, `LIGHTHOUSE_PAGES=package,product` measures only those pages, `LIGHTHOUSE_SCALED=0`
 * skips the scaled pass, `BENCH_JSON=1` adds one JSON line of all, `LIGHTHOUSE_REPORTS=dir`
 * keeps each run's report there (`<page>-<run>.json`: its requests and tasks; with Chromium 156
 * this Lighthouse's LCP-element audit fails, its trace-elements gatherer erring on the trace)
 * and its Chrome trace (`<page>-<run>.trace.json`), `LIGHTHOUSE_BLOCK='*footer*,*bell*'` refuses
 * the requests that match, to weigh a piece of the page against the same page without it.
 * `LIGHTHOUSE_CPU_SHARE=0.7` runs Chrome on that share of one CPU (Linux, as root): a slow hour
 * of this machine on demand (0.7 reads a benchmarkIndex of about 1,000 to 1,700 here, and a page
 * with one heading and no script still scores 99; docs/performance.md).
 * `npm run bench:lighthouse`.
 *
 * Lighthouse simulates TBT from the wall time of the page's main-thread tasks, times the CPU
 * slowdown. On a shared machine a task also waits while other processes have the CPU, and that
 * wait counts as blocking too. So each row also gives the page's main-thread CPU time from the
 * trace (from the task that commits the navigation to the page: before it, the thread does
 * Lighthouse's own setup on a blank page), steady when the machine is busy, its longest task's
 * CPU time times the slowdown: what that task costs the phone Lighthouse models (goal: under
 * 50 ms), and TBT from those CPU times ("from CPU": each task after the first content, times
 * the slowdown, less 50 ms, summed): the blocking the page's own work makes, without the
 * waits. It also lists when each run's Chrome showed the first content: Lighthouse simulates
 * the first paint from it, so a run where it came late counts every file loaded by then as
 * needed for that paint.
 *
 * Chrome runs with its own default features. chrome-launcher's default flags turn
 * RenderDocument off (a workaround for Lighthouse's own CI); with it off, this Chromium
 * showed the first frame of about half the runs 1 or 2 s late on any page, one without
 * scripts or pictures too (docs/performance.md), so it stays on here, as it is in a phone's Chrome.
 */
import { Launcher, launch } from 'chrome-launcher'
import lighthouse from 'lighthouse'
import { throttling } from 'lighthouse/core/config/constants.js'
import type { Artifacts, Result } from 'lighthouse'
import { chromium } from 'playwright'
import { mkdir, writeFile } from 'node:fs/promises'
import { OMNIBOX_WEBUI } from './lib/chromium'
import { chromeOnCpuShare } from './lib/cpu-share'
import { demoSession, median, startServer } from './lib/server'
import {
  LANGUAGE_COOKIE,
  LANGUAGE_KEY,
  SIGNED_IN_COOKIE,
  TIME_ZONE_KEY,
} from '../src/api/storage-keys'
import { pageMainThread, taskTimes, type TraceEvent } from './lib/trace'

const RUNS = Number(process.env.LIGHTHOUSE_RUNS ?? 5)
const MOBILE_THROTTLING = throttling.mobileSlow4G
const CPU_SHARE = process.env.LIGHTHOUSE_CPU_SHARE ? Number(process.env.LIGHTHOUSE_CPU_SHARE) : 0
const onShare = CPU_SHARE
  ? chromeOnCpuShare(process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', CPU_SHARE)
  : undefined
const chromePath = onShare?.path ?? process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
const pages = [
  { name: 'home', path: '/' },
  { name: 'product', path: '/#/products/products-1/1' },
  { name: 'package', path: '/#/products/products-1/packages/1' },
  { name: 'orders', path: '/#/Orders', signedIn: true },
  { name: 'wallet', path: '/#/wallet', signedIn: true },
  { name: 'product-ar', path: '/#/products/products-1/1', arabic: true },
  { name: 'home-in', path: '/', signedIn: true },
].filter(({ name }) => process.env.LIGHTHOUSE_PAGES?.split(',').includes(name) ?? true)
/** Chrome DevTools' benchmark score of a mid-tier phone (a Pixel 5). */
const MID_TIER_INDEX = 1000
/**
 * chrome-launcher's default flags, but with Chrome's RenderDocument left as Chrome sets it and
 * without the address-bar popup.
 */
const DISABLE_FEATURES = '--disable-features='
const launcherFlags = Launcher.defaultFlags().map((flag) =>
  flag.startsWith(DISABLE_FEATURES)
    ? DISABLE_FEATURES +
      flag
        .slice(DISABLE_FEATURES.length)
        .split(',')
        .filter((feature) => feature !== 'RenderDocument')
        .concat(OMNIBOX_WEBUI)
        .join(',')
    : flag,
)

interface Run {
  score: number
  lcp: number
  tbt: number
  cls: number
  bytes: number
  index: number
  cpu: number
  longestTask: number
  cpuTbt: number
  /** When this browser showed the first content: Lighthouse simulates from it. */
  seenFcp: number
}

/**
 * The main-thread CPU time of the page's renderer (the renderer whose main thread ran the most),
 * its longest task's CPU time times the slowdown, and the blocking time those CPU times make
 * after the first content (each task's CPU time times the slowdown, less 50 ms): TBT as the
 * phone Lighthouse models would have it, without the waits for a busy machine's CPU.
 */
function mainThreadCpu(trace: Artifacts['Trace'], slowdown: number, firstContentTs = 0) {
  const tasks = pageMainThread(trace.traceEvents as TraceEvent[]).filter(
    (event) => event.name === 'RunTask',
  )
  const busiest = taskTimes(tasks)
  const blocking = taskTimes(tasks.filter((task) => task.ts >= firstContentTs)).map((ms) =>
    Math.max(0, ms * slowdown - 50),
  )
  return {
    cpu: sum(busiest),
    longestTask: Math.max(0, ...busiest) * slowdown,
    cpuTbt: sum(blocking),
  }
}

/** The observed (not simulated) timings Lighthouse keeps in its `metrics` audit. */
function metricsOf(lhr: Result): {
  observedFirstContentfulPaint?: number
  observedFirstContentfulPaintTs?: number
} {
  const details = lhr.audits.metrics?.details as { items?: object[] } | undefined
  return details?.items?.[0] ?? {}
}

function sum(values: number[]): number {
  return values.reduce((total, value) => total + value, 0)
}

/**
 * Puts the session, or Arabic, in the browser's storage for the store's origin, from a file of
 * the store that runs no script (the storefront must not start before Lighthouse watches it).
 */
async function prepare(port: number, token: string, arabic: boolean): Promise<void> {
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`)
  try {
    const page = await browser.contexts()[0]!.newPage()
    await page.goto(`${server.url}/favicon.svg`)
    // A returning customer's device: the account bar has kept its time zone
    // (src/features/auth/account-bar.tsx), and the storefront the cookie that tells the server
    // a session is kept (src/api/token.ts).
    await page.evaluate(
      ([value, zoneKey, signedInCookie, language, languageKey, cookie]) => {
        if (value) {
          localStorage.setItem('token', value)
          localStorage.setItem(zoneKey, Intl.DateTimeFormat().resolvedOptions().timeZone)
          document.cookie = `${signedInCookie}=1; path=/`
        }
        // As src/i18n/locale.ts keeps a language picked: on the device and in a cookie.
        if (language) {
          localStorage.setItem(languageKey, language)
          document.cookie = `${cookie}=${language}; path=/`
        }
      },
      [
        token,
        TIME_ZONE_KEY,
        SIGNED_IN_COOKIE,
        arabic ? 'ar' : '',
        LANGUAGE_KEY,
        LANGUAGE_COOKIE,
      ] as const,
    )
    await page.close()
  } finally {
    await browser.close()
  }
}

const REPORTS = process.env.LIGHTHOUSE_REPORTS
/** Requests refused, to weigh what a piece of the page costs (Lighthouse's `*` patterns). */
const BLOCKED = process.env.LIGHTHOUSE_BLOCK?.split(',').filter(Boolean)

async function measure(
  url: string,
  cpuSlowdownMultiplier?: number,
  token = '',
  report = '',
  arabic = false,
): Promise<Run> {
  // A new browser per run: every run is a first visit with a cold cache.
  const chrome = await launch({
    chromePath,
    ignoreDefaultFlags: true,
    chromeFlags: [
      ...launcherFlags,
      '--headless=new',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
    ],
  })
  try {
    if (token || arabic) await prepare(chrome.port, token, arabic)
    const result = await lighthouse(
      url,
      {
        port: chrome.port,
        onlyCategories: ['performance'],
        logLevel: 'error',
        // A new browser's storage is empty anyway; signed in or in Arabic, it holds that.
        disableStorageReset: !!token || arabic,
        blockedUrlPatterns: BLOCKED,
      },
      cpuSlowdownMultiplier
        ? {
            extends: 'lighthouse:default',
            settings: { throttling: { ...MOBILE_THROTTLING, cpuSlowdownMultiplier } },
          }
        : undefined,
    )
    const lhr = result?.lhr
    if (!lhr) throw new Error('Lighthouse returned no result')
    if (REPORTS && report) {
      await mkdir(REPORTS, { recursive: true })
      await writeFile(`${REPORTS}/${report}.json`, JSON.stringify(lhr))
      await writeFile(`${REPORTS}/${report}.trace.json`, JSON.stringify(result.artifacts.Trace))
    }
    if (token && lhr.finalDisplayedUrl.includes('sign-in'))
      throw new Error(`${url} sent the signed-in customer to sign in`)
    return {
      ...mainThreadCpu(
        result.artifacts.Trace,
        cpuSlowdownMultiplier ?? MOBILE_THROTTLING.cpuSlowdownMultiplier,
        metricsOf(lhr).observedFirstContentfulPaintTs,
      ),
      score: Math.round((lhr.categories.performance?.score ?? 0) * 100),
      lcp: lhr.audits['largest-contentful-paint']?.numericValue ?? NaN,
      tbt: lhr.audits['total-blocking-time']?.numericValue ?? NaN,
      cls: lhr.audits['cumulative-layout-shift']?.numericValue ?? NaN,
      bytes: lhr.audits['total-byte-weight']?.numericValue ?? NaN,
      index: lhr.environment.benchmarkIndex,
      seenFcp: metricsOf(lhr).observedFirstContentfulPaint ?? NaN,
    }
  } finally {
    chrome.kill()
  }
}

const figures: Record<string, string | number>[] = []

async function pass(label: string, cpuSlowdownMultiplier?: number): Promise<number[]> {
  const indexes: number[] = []
  for (const page of pages) {
    const runs: Run[] = []
    for (let i = 0; i < RUNS; i++)
      runs.push(
        await measure(
          server.url + page.path,
          cpuSlowdownMultiplier,
          page.signedIn ? token : '',
          `${page.name}-${cpuSlowdownMultiplier ?? 'default'}-${i + 1}`,
          page.arabic,
        ),
      )
    const pick = (key: keyof Run) => median(runs.map((run) => run[key]))
    indexes.push(...runs.map((run) => run.index))
    const row = {
      bench: 'lighthouse',
      pass: label,
      page: page.name,
      score: pick('score'),
      lcpMs: Math.round(pick('lcp')),
      tbtMs: Math.round(pick('tbt')),
      cls: Number(pick('cls').toFixed(3)),
      kib: Number((pick('bytes') / 1024).toFixed(1)),
      benchmarkIndex: Math.round(pick('index')),
      mainThreadCpuMs: Math.round(pick('cpu')),
      longestTaskMs: Math.round(pick('longestTask')),
      tbtFromCpuMs: Math.round(pick('cpuTbt')),
      cpuSlowdown: cpuSlowdownMultiplier ?? MOBILE_THROTTLING.cpuSlowdownMultiplier,
    }
    const each = (key: keyof Run) => runs.map((run) => Math.round(run[key])).join(', ')
    console.log(
      `${label.padEnd(14)} ${page.name.padEnd(10)} performance ${row.score}  LCP ${(row.lcpMs / 1000).toFixed(2)} s  ` +
        `TBT ${row.tbtMs} ms (from CPU ${row.tbtFromCpuMs} ms)  CLS ${row.cls.toFixed(3)}  total ${row.kib} KiB  ` +
        `main-thread CPU ${row.mainThreadCpuMs} ms  longest task ${row.longestTaskMs} ms at ${row.cpuSlowdown}x  ` +
        `benchmarkIndex ${row.benchmarkIndex}  CPU ${row.cpuSlowdown}x  (median of ${RUNS}; ` +
        `scores ${each('score')}; first content seen at ${each('seenFcp')} ms)`,
    )
    figures.push(row)
  }
  return indexes
}

// The development outbox shows the demo customer's sign-in code.
const server = await startServer(Number(process.env.BENCH_PORT ?? 4510), { DEV_OUTBOX: '1' })
/** The demo customer's session, for the signed-in pages. */
let token = ''
try {
  if (pages.some((page) => page.signedIn)) token = await demoSession(server.url)
  const indexes = await pass(CPU_SHARE ? `on ${CPU_SHARE} CPU` : 'mobile default')
  if (process.env.LIGHTHOUSE_SCALED !== '0') {
    const slowdown = Math.max(1, Math.round((median(indexes) / MID_TIER_INDEX) * 10) / 10)
    await pass('mid-tier phone', slowdown)
  }
  // One line for `npm run bench`.
  if (process.env.BENCH_JSON === '1') console.log(JSON.stringify({ bench: 'lighthouse', figures }))
} finally {
  await server.stop()
  await onShare?.remove()
}
