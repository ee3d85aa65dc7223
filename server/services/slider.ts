import type { Kysely } from 'kysely'
import type { Image } from '../../src/contract/common'
import type { Database } from '../db/schema'
import { ApiError } from '../core/errors'
import { recordAudit } from './audit'
import { listSliderImages } from './site'

/*
 * The home page's slider as the console arranges it (docs/api.md, Console): a picture moved
 * up or down, or taken off. Each write moves the content version on, so the storefront shows
 * the new order at once.
 */

/** Where the pictures the console adds are served (routes/slider.ts). */
export const SLIDER_MEDIA_PREFIX = '/media/slider/'

/** Moves a picture one place up or down (nothing at either end), audited with both orders. */
export function moveSlide(
  db: Kysely<Database>,
  id: number,
  direction: 'up' | 'down',
  { actor, now }: { actor: string; now: Date },
): Promise<Image[]> {
  return db.transaction().execute(async (trx) => {
    const before = await listSliderImages(trx)
    const at = before.findIndex((s) => s.id === id)
    if (at < 0) throw new ApiError(404, 'errors.not_found')
    const to = direction === 'up' ? at - 1 : at + 1
    if (to < 0 || to >= before.length) return before
    const after = [...before]
    ;[after[at], after[to]] = [after[to]!, after[at]!]
    for (const [position, slide] of after.entries())
      await trx.updateTable('slider_images').set({ position }).where('id', '=', slide.id).execute()
    await recordAudit(trx, {
      actor,
      action: 'slider.move',
      details: { id, before: before.map((s) => s.id), after: after.map((s) => s.id) },
      now,
    })
    return after
  })
}

/** Puts a stored picture (its /media/slider/ address) last on the slider, audited. */
export function addSlide(
  db: Kysely<Database>,
  image: string,
  { actor, now }: { actor: string; now: Date },
): Promise<Image[]> {
  return db.transaction().execute(async (trx) => {
    const last = await trx
      .selectFrom('slider_images')
      .select((eb) => eb.fn.max('position').as('position'))
      .executeTakeFirst()
    const added = await trx
      .insertInto('slider_images')
      .values({
        image,
        position: Number(last?.position ?? -1) + 1,
        created_at: now.toISOString(),
      })
      .returning(['id', 'image'])
      .executeTakeFirstOrThrow()
    await recordAudit(trx, { actor, action: 'slider.add', details: { after: added }, now })
    return listSliderImages(trx)
  })
}

/** Takes a picture off the slider, audited with the picture it was. */
export function removeSlide(
  db: Kysely<Database>,
  id: number,
  { actor, now }: { actor: string; now: Date },
): Promise<Image[]> {
  return db.transaction().execute(async (trx) => {
    const removed = await trx
      .deleteFrom('slider_images')
      .where('id', '=', id)
      .returning(['id', 'image'])
      .executeTakeFirst()
    if (!removed) throw new ApiError(404, 'errors.not_found')
    await recordAudit(trx, { actor, action: 'slider.remove', details: { before: removed }, now })
    return listSliderImages(trx)
  })
}
