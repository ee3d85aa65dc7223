/**
 * Lighthouse 12.2.3, mobile defaults (simulated slow 4G, mid-range phone), against the built
 * app served by the real server: the home page and a product page, 5 cold runs each. Prints
 * the median performance score, LCP, TBT, CLS and total bytes, and Lighthouse's benchmarkIndex
 * (how fast this machine's CPU is; figures from machines far apart do not compare).
 * `npm run bench:lighthouse`; BENCH_JSON=1 adds one line `{"bench":"lighthouse",...}`.
 */
import { launch } from 'chrome-launcher'
import lighthouse from 'lighthouse'
import { median, startServer } from './lib/server'

const RUNS = Number(process.env.LIGHTHOUSE_RUNS ?? 5)
const chromePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
const pages = [
  { name: 'home', path: '/' },
  { name: 'product', path: '/#/products/products-1/1' },
]

const figures: Record<string, string | number>[] = []
const server = await startServer(Number(process.env.BENCH_PORT ?? 4510))
try {
  for (const page of pages) {
    const runs: {
      score: number
      lcp: number
      tbt: number
      cls: number
      bytes: number
      benchmarkIndex: number
    }[] = []
    for (let i = 0; i < RUNS; i++) {
      // A new browser per run: every run is a first visit with a cold cache.
      const chrome = await launch({
        chromePath,
        chromeFlags: [
          '--headless=new',
          '--no-sandbox',
          '--disable-gpu',
          '--disable-quic',
          '--no-first-run',
          '--disable-background-networking',
          '--disable-component-update',
          '--disable-sync',
        ],
      })
      try {
        const result = await lighthouse(server.url + page.path, {
          port: chrome.port,
          onlyCategories: ['performance'],
          logLevel: 'error',
        })
        const lhr = result?.lhr
        if (!lhr) throw new Error('Lighthouse returned no result')
        runs.push({
          score: Math.round((lhr.categories.performance?.score ?? 0) * 100),
          lcp: lhr.audits['largest-contentful-paint']?.numericValue ?? NaN,
          tbt: lhr.audits['total-blocking-time']?.numericValue ?? NaN,
          cls: lhr.audits['cumulative-layout-shift']?.numericValue ?? NaN,
          bytes: lhr.audits['total-byte-weight']?.numericValue ?? NaN,
          benchmarkIndex: lhr.environment.benchmarkIndex,
        })
      } finally {
        await chrome.kill()
      }
    }
    const pick = (key: keyof (typeof runs)[number]) => median(runs.map((run) => run[key]))
    console.log(
      `${page.name.padEnd(8)} performance ${pick('score')}  LCP ${(pick('lcp') / 1000).toFixed(2)} s  ` +
        `TBT ${Math.round(pick('tbt'))} ms  CLS ${pick('cls').toFixed(3)}  ` +
        `total ${(pick('bytes') / 1024).toFixed(1)} KiB  benchmarkIndex ${Math.round(pick('benchmarkIndex'))}  ` +
        `(median of ${RUNS}; scores ${runs.map((run) => run.score).join(', ')})`,
    )
    figures.push({
      page: page.name,
      score: pick('score'),
      lcpMs: pick('lcp'),
      tbtMs: pick('tbt'),
      cls: pick('cls'),
      bytes: pick('bytes'),
      benchmarkIndex: pick('benchmarkIndex'),
    })
  }
} finally {
  await server.stop()
}
if (process.env.BENCH_JSON === '1') {
  console.log(JSON.stringify({ bench: 'lighthouse', runs: RUNS, figures }))
}
