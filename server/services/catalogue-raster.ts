import pLimit from 'p-limit'
import sharp from 'sharp'

/*
 * The drawn catalogue pictures as WebP (services/catalogue-images.ts says why). Rasterising
 * one takes about 30 ms of CPU on libuv's thread pool, which file reads share: one at a time,
 * and each kept, by the name that holds its drawing's hash, for as long as there is room.
 */

const rasterising = pLimit(1)
const KEPT = 1000
const kept = new Map<string, Promise<Buffer>>()

/** The WebP of a drawing, under `name` (its URL's file name, which names the drawing). */
export function rasterImage(name: string, svg: string): Promise<Buffer> {
  let webp = kept.get(name)
  if (!webp) {
    webp = rasterising(() => sharp(Buffer.from(svg)).webp({ quality: 70 }).toBuffer())
    // A failure is not kept: the next request tries again.
    webp.catch(() => kept.delete(name))
    if (kept.size >= KEPT) kept.delete(kept.keys().next().value!)
    kept.set(name, webp)
  }
  return webp
}
