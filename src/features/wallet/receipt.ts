import { RECEIPT_MAX_BYTES, RECEIPT_TYPES } from '../../contract/constants'

/** A receipt needs to be read, not printed: its longer side at most this many pixels. */
export const RECEIPT_MAX_EDGE = 2000
/** Below this a readable photo is sent as it is. */
const SMALL_ENOUGH = 1.5 * 1024 * 1024

const accepted = (type: string) => (RECEIPT_TYPES as readonly string[]).includes(type)

/**
 * A phone photo made fit to send: scaled down to RECEIPT_MAX_EDGE and re-encoded as JPEG when
 * it is large, or in a format the store does not take (an iPhone's HEIC the browser can read).
 * Throws 'not-an-image' when the browser cannot read it as a picture, 'too-large' when even
 * the scaled copy is over the limit.
 */
export async function prepareReceipt(file: File): Promise<Blob> {
  if (accepted(file.type) && file.size <= SMALL_ENOUGH) return file
  let bitmap: ImageBitmap
  try {
    bitmap = await createImageBitmap(file)
  } catch {
    throw new Error('not-an-image')
  }
  const scale = Math.min(1, RECEIPT_MAX_EDGE / Math.max(bitmap.width, bitmap.height))
  if (scale === 1 && accepted(file.type) && file.size <= RECEIPT_MAX_BYTES) return file
  const canvas = document.createElement('canvas')
  canvas.width = Math.round(bitmap.width * scale)
  canvas.height = Math.round(bitmap.height * scale)
  canvas.getContext('2d')!.drawImage(bitmap, 0, 0, canvas.width, canvas.height)
  bitmap.close()
  const blob = await new Promise<Blob | null>((resolve) =>
    canvas.toBlob(resolve, 'image/jpeg', 0.85),
  )
  if (!blob) throw new Error('not-an-image')
  if (blob.size > RECEIPT_MAX_BYTES) throw new Error('too-large')
  return blob
}
