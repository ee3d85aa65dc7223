/**
 * Renders the app icons (192, 512 and a maskable 512) from public/favicon.svg with Chromium.
 * Run once when the mark changes: `npx tsx scripts/make-icons.ts`; the PNGs are committed.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { chromium } from '@playwright/test'

const root = join(import.meta.dirname, '..')
const svg = readFileSync(join(root, 'public/favicon.svg'), 'utf8')
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu'],
})
const page = await browser.newPage()
for (const [name, size, pad] of [
  ['icon-192.png', 192, 0],
  ['icon-512.png', 512, 0],
  // Maskable icons keep their mark inside the central 80% safe zone.
  ['icon-maskable-512.png', 512, 0.12],
] as const) {
  await page.setViewportSize({ width: size, height: size })
  const inset = Math.round(size * pad)
  await page.setContent(
    `<body style="margin:0;background:#0f766e"><div style="padding:${inset}px">${svg.replace('<svg ', `<svg width="${size - 2 * inset}" height="${size - 2 * inset}" `)}</div></body>`,
  )
  await page.screenshot({ path: join(root, 'public/icons', name), omitBackground: pad === 0 })
}
await browser.close()
