import { Hono, type Context } from 'hono'
import { ENDPOINTS as E } from '../../src/contract/endpoints'
import type { Reply } from '../../src/contract/endpoints'
import { ProviderError, type PlayerApi } from '../adapters/provider'
import { optionalUser, requireUserOrApiToken } from '../http/auth'
import { formBodyLimit, validForm } from '../http/body'
import type { AppEnv, AppVariables, MaybeAuthEnv } from '../http/env'
import { ApiError } from '../core/errors'
import { idParam } from '../core/paging'
import { anonymousLookupLimit, statusRefreshLimit } from '../http/limits'
import { t, type MessageId } from '../i18n'
import { refreshOrders } from '../services/order-status'
import {
  findOrder,
  listOrders,
  ORDER_FIELD_LABELS,
  orderWire,
  type WireOptions,
} from '../services/order-queries'
import { checkout, stockOptions } from '../services/orders'
import { withStockCodes } from '../services/stock'
import { lastPlayerNumber, lookupPlayer } from '../services/players'

/** Replies in the request's language, with dates in the store's time zone. */
const wireOptions = ({ locale, config }: Pick<AppVariables, 'locale' | 'config'>): WireOptions => ({
  locale,
  timeZone: config.storeTimeZone,
})

/** A failed player search: `message` and `msg` both, as the storefront reads either. */
function lookupFailure(c: Context<MaybeAuthEnv>, status: 422 | 503, id: MessageId) {
  const text = t(c.var.locale, id)
  return c.json({ message: text, msg: text }, status)
}

async function playerSearch(c: Context<MaybeAuthEnv>, api: PlayerApi | undefined, raw: string) {
  const number = raw.trim()
  if (number === '') return lookupFailure(c, 422, 'player.number_required')
  if (!api) return lookupFailure(c, 422, 'player.not_found')
  try {
    const result = await lookupPlayer(c.var.db, c.var.provider, api, number, {
      userId: c.var.user?.id,
      productId: idParam(c.req.query('product_id')),
      now: c.var.clock.now(),
    })
    if (!result.found) return lookupFailure(c, 422, 'player.not_found')
    const reply: Reply<'playerById'> = { data: { username: result.name } }
    return c.json(reply)
  } catch (err) {
    if (err instanceof ProviderError) return lookupFailure(c, 503, 'player.unavailable')
    throw err
  }
}

/**
 * Ordering, the orders pages and the player search (docs/api.md, Orders and player lookups).
 * A reseller's server may make all of these with its API token, from an address on the token's
 * whitelist.
 */
export const orderRoutes = new Hono<AppEnv>()
  .post(
    E.placeOrder.path,
    formBodyLimit(),
    requireUserOrApiToken,
    validForm(E.placeOrder.body, ORDER_FIELD_LABELS),
    async (c) => {
      // The storefront sends an Idempotency-Key with every order, so a retried submit can never
      // pay twice; other clients may leave it out and then each call places an order.
      // c.get rather than c.var: each read of c.var copies every variable (docs/performance.md).
      const config = c.get('config')
      const contentVersion = c.get('contentVersion')
      const catalogueRows = c.get('catalogueRows')
      const reply = await checkout(
        {
          db: c.get('db'),
          provider: c.get('provider'),
          lbpRate: config.lbpRate,
          wire: { locale: c.get('locale'), timeZone: config.storeTimeZone },
          now: c.get('clock').now(),
          logger: c.get('logger'),
          // Priced by the content version the session's read saw, when there was one.
          rows: contentVersion ? catalogueRows.at(contentVersion) : catalogueRows,
          stock: stockOptions(config),
        },
        c.get('user'),
        {
          form: c.req.valid('form'),
          playerNameQuery: c.req.query('player_name'),
          idempotencyKey: c.req.header('idempotency-key'),
        },
      )
      return c.json(reply)
    },
  )
  .get(E.refreshOrders.path, requireUserOrApiToken, statusRefreshLimit, async (c) => {
    let updated: number
    try {
      updated = await refreshOrders(c.var.db, c.var.provider, c.var.user.id, {
        lbpRate: c.var.config.lbpRate,
        now: c.var.clock.now(),
        logger: c.var.logger,
      })
    } catch (err) {
      if (err instanceof ProviderError) {
        throw new ApiError(503, 'order.provider_unavailable', undefined, { cause: err })
      }
      throw err
    }
    const reply: Reply<'refreshOrders'> = {
      message: t(c.var.locale, 'order.status_refreshed'),
      data: { updated },
    }
    return c.json(reply)
  })
  .get(E.playerByName.path, optionalUser, anonymousLookupLimit, (c) =>
    playerSearch(c, { kind: 'name', name: c.req.param('api') }, c.req.param('number')),
  )
  .get(E.playerById.path, optionalUser, anonymousLookupLimit, (c) => {
    const id = idParam(c.req.param('id'))
    return playerSearch(
      c,
      id === undefined ? undefined : { kind: 'id', id },
      c.req.query('number') ?? '',
    )
  })
  .get(E.playerNumber.path, requireUserOrApiToken, async (c) => {
    const productId = idParam(c.req.query('product_id'))
    const reply: Reply<'playerNumber'> = {
      data: {
        player_number:
          productId === undefined
            ? null
            : await lastPlayerNumber(c.var.db, c.var.user.id, productId),
      },
    }
    return c.json(reply)
  })
  .get(E.orders.path, requireUserOrApiToken, async (c) =>
    c.json(
      await listOrders(c.var.db, c.var.user, wireOptions(c.var), c.req.query(), (rows) =>
        withStockCodes(c.var.db, c.var.config.tokenSecret, rows),
      ),
    ),
  )
  .get(E.order.path, requireUserOrApiToken, async (c) => {
    const id = idParam(c.req.param('id'))
    const order = id === undefined ? undefined : await findOrder(c.var.db, c.var.user.id, id)
    if (!order) throw new ApiError(404, 'order.not_found')
    // The user's own order only (findOrder): its stock codes are theirs to see.
    const [shown] = await withStockCodes(c.var.db, c.var.config.tokenSecret, [order])
    const reply: Reply<'order'> = {
      data: orderWire(shown!, c.var.user, wireOptions(c.var)),
    }
    return c.json(reply)
  })
