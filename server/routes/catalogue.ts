import { Hono, type Context } from 'hono'
import { ENDPOINTS as E } from '../../src/contract/endpoints'
import type { AppEnv } from '../http/env'
import { messageReply } from '../http/errors'
import { idParam, pageRequest } from '../core/paging'
import { sharedReply } from '../http/reply-cache'
import { IMMUTABLE } from '../http/static'
import type { MessageId } from '../i18n'
import {
  findImageSubject,
  getGroup,
  getPackageDetail,
  getProductDetail,
  listGroups,
  listPackages,
  listProducts,
} from '../services/catalogue'
import { hashOf, parseImageName, renderImage } from '../services/catalogue-images'
import { rasterImage } from '../services/made-pictures'

function notFound(c: Context<AppEnv>, id: MessageId) {
  return messageReply(c, 404, id)
}

/**
 * GET /api/products...: the public catalogue (docs/api.md, Catalogue). The same for every
 * caller, so successful replies are kept in memory until the catalogue changes, and may be
 * cached by browsers and CDNs for a short while; 404s are not (docs/api.md "Caching").
 */
const shared = sharedReply()

export const catalogueRoutes = new Hono<AppEnv>()
  .get(E.groups.path, shared, async (c) => c.json(await listGroups(c.var.db, c.var.locale)))
  .get(E.group.path, shared, async (c) => {
    const id = idParam(c.req.param('id'))
    const group = id === undefined ? undefined : await getGroup(c.var.db, c.var.locale, id)
    if (!group) return notFound(c, 'catalogue.group_not_found')
    return c.json({ data: group })
  })
  .get(E.package.path, shared, async (c) => {
    const id = idParam(c.req.param('id'))
    const detail = id === undefined ? undefined : await getPackageDetail(c.var.db, c.var.locale, id)
    if (!detail) return notFound(c, 'catalogue.package_not_found')
    return c.json({ data: detail })
  })
  .get(E.productPackages.path, shared, async (c) => {
    const id = idParam(c.req.param('id'))
    const page =
      id === undefined
        ? undefined
        : await listPackages(c.var.db, c.var.locale, id, pageRequest(c.req.query()))
    if (!page) return notFound(c, 'catalogue.product_not_found')
    return c.json(page)
  })
  .get(E.product.path, shared, async (c) => {
    const id = idParam(c.req.param('id'))
    const detail = id === undefined ? undefined : await getProductDetail(c.var.db, c.var.locale, id)
    if (!detail) return notFound(c, 'catalogue.product_not_found')
    return c.json({ data: detail })
  })
  .get(E.products.path, shared, async (c) => {
    const query = c.req.query()
    return c.json(
      await listProducts(c.var.db, c.var.locale, pageRequest(query), query.search ?? ''),
    )
  })

/**
 * GET /media/catalogue/<kind>-<id>.<hash>.webp (or .svg): the pictures the project draws for
 * catalogue entries without an image of their own. The hash is of the drawing, so a name that
 * answers 200 always means the same bytes and may be cached for a year.
 */
export const catalogueMediaRoutes = new Hono<AppEnv>().get('/:file', async (c) => {
  const file = c.req.param('file')
  const name = parseImageName(file)
  const subject = name && (await findImageSubject(c.var.db, name.kind, name.id))
  const svg = subject && renderImage(subject)
  // A stale hash (the entry was renamed) is not served: its bytes would differ.
  if (!name || !svg || hashOf(svg) !== name.hash) return c.text('Not Found', 404)
  const etag = `"${name.hash}${name.format === 'svg' ? '' : '-webp'}"`
  c.header('Cache-Control', IMMUTABLE)
  c.header('ETag', etag)
  if (c.req.header('if-none-match') === etag) return c.body(null, 304)
  if (name.format === 'svg') {
    c.header('Content-Type', 'image/svg+xml; charset=utf-8')
    return c.body(svg)
  }
  c.header('Content-Type', 'image/webp')
  return c.body(new Uint8Array(await rasterImage(file, svg)))
})
