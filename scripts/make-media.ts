/**
 * Renders the demo's pictures in server/media (drawn as SVG, their source) to WebP beside
 * them, named after their content like every media file: `npx tsx scripts/make-media.ts`, then
 * point server/demo/seed.ts at the names it prints; the WebP files are committed. A browser
 * lays out and paints an SVG picture on the page's main thread, where a WebP one is decoded
 * off it (docs/performance.md, Pictures). The logo is drawn at twice its size, for sharp
 * screens; the favicon-like icon stays SVG.
 */
import { createHash } from 'node:crypto'
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import sharp from 'sharp'

const dir = join(import.meta.dirname, '../server/media')
for (const file of readdirSync(dir)) {
  const source = /^([a-z-]+)\.[0-9a-f]{8}\.svg$/.exec(file)
  if (!source || source[1] === 'icon') continue
  const density = source[1] === 'logo' ? 144 : 72
  const webp = await sharp(readFileSync(join(dir, file)), { density })
    .webp({ quality: 70 })
    .toBuffer()
  const name = `${source[1]}.${createHash('sha256').update(webp).digest('hex').slice(0, 8)}.webp`
  writeFileSync(join(dir, name), webp)
  console.log(`${file} -> ${name} (${webp.length} bytes)`)
}
