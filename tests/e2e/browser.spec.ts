import { readdirSync, readFileSync } from 'node:fs'
import { expect, test } from '@playwright/test'

/** The command lines of the Chromium browsers Playwright runs (its main processes). */
function browserCommandLines(): string[][] {
  const lines: string[][] = []
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    let args: string[]
    try {
      args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')
    } catch {
      continue // gone meanwhile
    }
    if (args.includes('--remote-debugging-pipe') && !args.some((a) => a.startsWith('--type=')))
      lines.push(args)
  }
  return lines
}

// The journeys' browser (playwright.config.ts, scripts/lib/chromium.ts): without desktop
// Chromium's address-bar popup, which took a second of CPU beside every page opened, and with
// every feature Playwright itself turns off (Chrome keeps only the last `--disable-features`).
test('the browser runs without the address-bar popup, and with the features Playwright turns off', async ({
  page,
  browser,
}) => {
  await page.goto('/favicon.svg')
  const session = await browser.newBrowserCDPSession()
  const { targetInfos } = await session.send('Target.getTargets')
  expect(
    targetInfos.map((target) => target.url).filter((url) => url.startsWith('chrome://')),
  ).toEqual([])
  const lines = browserCommandLines()
  expect(lines.length).toBeGreaterThan(0)
  for (const args of lines) {
    const lists = args
      .filter((arg) => arg.startsWith('--disable-features='))
      .map((arg) => arg.slice('--disable-features='.length).split(','))
    expect(lists.at(-1)).toEqual(expect.arrayContaining(lists.flat()))
  }
})
