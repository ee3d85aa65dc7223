import pLimit from 'p-limit'
import sharp from 'sharp'
import { PICTURE_WIDTHS } from '../../src/contract/pictures'

/*
 * The narrower copies of the pictures the store serves (`?w=`, src/contract/pictures.ts), made
 * on first ask, one at a time on libuv's thread pool, and kept by the picture's name and width
 * for as long as there is room: the names carry the content's hash or an upload's own id, so a
 * copy never goes stale.
 */

const resizing = pLimit(1)
const KEPT = 300
const kept = new Map<string, Promise<Buffer>>()

/** The width asked for (`w`), when it is one the store makes copies at. */
export function pictureWidth(asked: string | undefined): number | undefined {
  const width = Number(asked)
  return (PICTURE_WIDTHS as readonly number[]).includes(width) ? width : undefined
}

/** The picture `name` (its bytes), at most `width` pixels wide, in its own format. */
export function narrowPicture(name: string, bytes: Uint8Array, width: number): Promise<Buffer> {
  const key = `${name}?w=${width}`
  let copy = kept.get(key)
  if (!copy) {
    copy = resizing(async () => {
      const picture = sharp(bytes)
      // One no wider already is its own copy: encoded again, it would only grow.
      const { width: own = 0, format } = await picture.metadata()
      if (own <= width) return Buffer.from(bytes)
      const narrower = picture.resize({ width })
      // The qualities the store's own pictures are made at (scripts/make-media.ts).
      if (format === 'webp') return narrower.webp({ quality: 70 }).toBuffer()
      if (format === 'jpeg') return narrower.jpeg({ quality: 80, mozjpeg: true }).toBuffer()
      return narrower.toBuffer()
    })
    // A failure is not kept: the next request tries again.
    copy.catch(() => kept.delete(key))
    if (kept.size >= KEPT) kept.delete(kept.keys().next().value!)
    kept.set(key, copy)
  }
  return copy
}
