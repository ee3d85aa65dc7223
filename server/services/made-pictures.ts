import pLimit from 'p-limit'
import sharp from 'sharp'
import { MADE_WIDTHS } from '../../src/contract/pictures'

/*
 * The pictures the server makes with sharp: the drawn catalogue pictures as WebP
 * (services/catalogue-images.ts says why) and the narrower copies of the pictures it serves
 * (`?w=`, src/contract/pictures.ts). Rasterising a drawing takes about 30 ms of CPU on libuv's
 * thread pool, which file reads share: one picture at a time, on first ask, and each kept by its
 * name for as long as there is room. The names hold the drawing's or the content's hash, or an
 * upload's own id, so a kept picture never goes stale.
 */

const making = pLimit(1)
const KEPT = 1300
const kept = new Map<string, Promise<Buffer>>()

function madePicture(name: string, make: () => Promise<Buffer>): Promise<Buffer> {
  let picture = kept.get(name)
  if (!picture) {
    picture = making(make)
    // A failure is not kept: the next request tries again.
    picture.catch(() => kept.delete(name))
    if (kept.size >= KEPT) kept.delete(kept.keys().next().value!)
    kept.set(name, picture)
  }
  return picture
}

/** The WebP of a drawing, under `name` (its URL's file name, which names the drawing). */
export function rasterImage(name: string, svg: string): Promise<Buffer> {
  return madePicture(name, () => sharp(Buffer.from(svg)).webp({ quality: 70 }).toBuffer())
}

/** The width asked for (`w`), when it is one the store makes copies at. */
export function pictureWidth(asked: string | undefined): number | undefined {
  const width = Number(asked)
  return MADE_WIDTHS.includes(width) ? width : undefined
}

/**
 * The picture `name` (its bytes), at most `width` pixels wide, in its own format; a drawing
 * (SVG) as a PNG that wide.
 */
export function narrowPicture(name: string, bytes: Uint8Array, width: number): Promise<Buffer> {
  return madePicture(`${name}?w=${width}`, async () => {
    const picture = sharp(bytes)
    const { width: own = 0, format } = await picture.metadata()
    if (format === 'svg') {
      // Drawn at the density that makes it that wide: a drawing has no pixels to lose.
      const density = Math.min(2400, (72 * width) / Math.max(1, own))
      return sharp(bytes, { density }).resize({ width }).png({ palette: true }).toBuffer()
    }
    // One no wider already is its own copy: encoded again, it would only grow.
    if (own <= width) return Buffer.from(bytes)
    const narrower = picture.resize({ width })
    // The qualities the store's own pictures are made at (scripts/make-media.ts).
    if (format === 'webp') return narrower.webp({ quality: 70 }).toBuffer()
    if (format === 'jpeg') return narrower.jpeg({ quality: 80, mozjpeg: true }).toBuffer()
    return narrower.toBuffer()
  })
}
