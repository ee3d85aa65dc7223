import { randomUUID } from 'node:crypto'
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import sharp from 'sharp'
import { ApiError, ServiceUnavailableError } from '../core/errors'
import { boundedQueue } from './queue'

/*
 * Receipt photos of Whish Money and OMT Pay top-ups, and the home slider's pictures the console
 * adds, each in a folder of its own. Receipts are private: stored outside the web root under
 * names the server makes, served only to their owner (and to the operator through
 * `charges:receipt`); the slider's are served to anyone (/media/slider/). What is kept is never
 * the uploaded file itself but a re-encoding of its pixels: no metadata (a phone's GPS
 * position), no script an image format could smuggle.
 */

export interface ReceiptLimits {
  /** The upload's size limit in bytes. */
  maxBytes: number
  /** Width x height limit, checked before any pixel is decoded. */
  maxPixels: number
}

/** The longer side of a kept receipt: enough to read every digit of a notice. */
const KEPT_EDGE = 2000

/**
 * Decoding a photo of 40 million pixels takes most of a CPU-second on libuv's thread pool:
 * one at a time, a few waiting, then 503 (the queue of services/queue.ts).
 */
const decoding = boundedQueue({
  concurrency: 1,
  waiting: 8,
  busy: () => new ServiceUnavailableError('charging.receipt.busy', 30),
})

/** The file types a receipt may be, told by their first bytes, whatever the name says. */
function sniff(bytes: Uint8Array): 'jpeg' | 'png' | 'webp' | undefined {
  const at = (offset: number, ...values: number[]) =>
    values.every((value, i) => bytes[offset + i] === value)
  if (at(0, 0xff, 0xd8, 0xff)) return 'jpeg'
  if (at(0, 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'png'
  if (at(0, 0x52, 0x49, 0x46, 0x46) && at(8, 0x57, 0x45, 0x42, 0x50)) return 'webp'
  return undefined
}

/**
 * Checks an uploaded receipt and keeps a clean copy: throws ApiError 422 (in the customer's
 * language, by the caller's error handler) for anything that is not a JPEG, PNG or WebP photo
 * within the limits, and stores nothing then. Returns the server-made file name.
 */
export async function storePhoto(
  dir: string,
  bytes: Uint8Array,
  limits: ReceiptLimits,
): Promise<string> {
  if (bytes.byteLength > limits.maxBytes)
    throw new ApiError(413, 'charging.receipt.too_large', { max: megabytes(limits.maxBytes) })
  const format = sniff(bytes)
  if (!format) throw new ApiError(422, 'charging.receipt.not_image')
  let kept: Buffer
  try {
    kept = await decoding(async () => {
      const image = sharp(bytes, { limitInputPixels: limits.maxPixels, failOn: 'error' })
      const meta = await image.metadata()
      if (meta.format !== format) throw new ApiError(422, 'charging.receipt.not_image')
      return image
        .rotate() // applies the camera's orientation before the metadata goes
        .resize({ width: KEPT_EDGE, height: KEPT_EDGE, fit: 'inside', withoutEnlargement: true })
        .jpeg({ quality: 85, mozjpeg: true })
        .toBuffer()
    })
  } catch (err) {
    if (err instanceof ApiError) throw err
    const message = err instanceof Error ? err.message : ''
    throw new ApiError(
      422,
      /pixel limit/i.test(message)
        ? 'charging.receipt.too_many_pixels'
        : 'charging.receipt.not_image',
      undefined,
      { cause: err },
    )
  }
  await mkdir(dir, { recursive: true })
  const file = `${randomUUID()}.jpg`
  await writeFile(join(dir, file), kept, { flag: 'wx' })
  return file
}

/** A kept photo's bytes (always JPEG). */
export function readPhoto(dir: string, file: string): Promise<Buffer> {
  // Names are ours (a UUID): anything else never reaches the file system.
  if (!isPhotoName(file)) throw new Error(`not a photo name: ${file}`)
  return readFile(join(dir, file))
}

/** A name storePhoto makes (a UUID): anything else never reaches the file system. */
export const isPhotoName = (file: string) => /^[0-9a-f-]{36}\.jpg$/.test(file)

/** Removes a kept photo whose row (a charging process, a slide) could not be recorded. */
export async function removePhoto(dir: string, file: string): Promise<void> {
  await rm(join(dir, file), { force: true })
}

export const megabytes = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10
