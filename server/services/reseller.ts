import type { Kysely } from 'kysely'
import type { Locale } from '../../src/contract/common'
import { ORDER_QUANTITY_MAX } from '../../src/contract/orders'
import {
  V2_ORDER_ID,
  V2_SERVICE_ID,
  V2_STATUS_MAX_ORDERS,
  type V2MultiStatusReply,
  type V2OrderStatus,
  type V2Service,
} from '../../src/contract/reseller'
import { microsText } from '../../src/domain/money'
import {
  asksAccountLogin,
  formKind,
  isFreeFire,
  minimumOf,
  isCrypto,
  needsPlayerNumber,
  playerMustBeVerified,
  type PurchaseTerms,
} from '../../src/domain/ordering'
import { orderTotal } from '../../src/domain/pricing'
import { ProviderError } from '../adapters/provider'
import type { Database, OrderRow, UserRow } from '../db/schema'
import type { AdditionalServiceRow, PackageRow, ProductRow } from '../db/schema-catalogue'
import { ApiError } from '../core/errors'
import { localized } from '../i18n'
import { checkout, orderForm, type CheckoutContext } from './orders'
import { byProduct, catalogueInOrder } from './catalogue-rows'
import { lookupPlayer } from './players'
import { isProductAvailable, priceInput, purchaseTerms } from './purchase-terms'

/*
 * The reseller API (POST /api/v2, the SMM panel "API v2"): the catalogue as a list of services,
 * orders placed through checkout() (the storefront's one order path: same rules, same price,
 * same debit), their status and the balance.
 *
 * A service id is the kind of item as its first digit, then the item's catalogue id, which
 * catalogue:import keeps: 1<product id> for a product bought as it is, 2<package id> for a
 * package, 3<service id> for one social service of a product (its followers, its likes...).
 * Package 119 is service 2119, product 24 is 124: the ids stay the same across imports and
 * never collide, however large the catalogue grows.
 */

export type OfferKind = 'product' | 'package' | 'social'

const KIND_DIGIT: Record<OfferKind, string> = { product: '1', package: '2', social: '3' }
const DIGIT_KIND: Record<string, OfferKind> = { '1': 'product', '2': 'package', '3': 'social' }

export const serviceIdOf = (kind: OfferKind, id: number) => Number(`${KIND_DIGIT[kind]}${id}`)

/** A service id as the kind and catalogue id it stands for, or undefined. */
export function parseServiceId(text: string): { kind: OfferKind; id: number } | undefined {
  if (!V2_SERVICE_ID.test(text) || text.length < 2) return undefined
  const kind = DIGIT_KIND[text[0]!]
  const id = Number(text.slice(1))
  if (!kind || text[1] === '0' || !Number.isSafeInteger(id)) return undefined
  return { kind, id }
}

/** One thing a reseller can order, with the rules of its order form. */
interface Offer {
  kind: OfferKind
  product: ProductRow
  pkg: PackageRow | undefined
  social: AdditionalServiceRow | undefined
  terms: PurchaseTerms
}

const offerId = (offer: Offer) =>
  serviceIdOf(
    offer.kind,
    offer.kind === 'package'
      ? offer.pkg!.id
      : offer.kind === 'social'
        ? offer.social!.id
        : offer.product.id,
  )

/**
 * What the order form calls the field a panel's `link` stands for: the profile or post of a
 * social service, the wallet of a crypto item, the item's first own field, the game account or
 * player number of a game item. Undefined when the form has no such field.
 */
export function linkField(terms: PurchaseTerms): string | undefined {
  switch (formKind(terms)) {
    case 'social':
      return 'social_link'
    case 'crypto':
      return 'wallet_address'
    case 'requirements':
      return terms.requirements[0]?.name
    case 'standard':
      if (asksAccountLogin(terms)) return 'email_or_phone_number'
      return needsPlayerNumber(terms) ? 'player_number' : undefined
  }
}

/** A product is bought as it is (not through a package) when the storefront does so. */
const boughtDirectly = (product: ProductRow, packageCount: number) =>
  product.istoken === 1 || packageCount === 0

// ---- services -------------------------------------------------------------------------------

/** Every service a reseller can order now, in the store's order: available items only. */
async function availableOffers(db: Kysely<Database>, locale: Locale): Promise<Offer[]> {
  const [products, packages, services] = await catalogueInOrder(db)
  const packagesOf = byProduct(packages)
  const servicesOf = byProduct(services)
  const offers: Offer[] = []
  for (const product of products) {
    if (!isProductAvailable(product)) continue
    const own = packagesOf(product.id)
    const socials = servicesOf(product.id)
    if (boughtDirectly(product, own.length)) {
      const terms = purchaseTerms(product, undefined, socials, locale)
      if (socials.length === 0)
        offers.push({ kind: 'product', product, pkg: undefined, social: undefined, terms })
      for (const social of socials)
        offers.push({ kind: 'social', product, pkg: undefined, social, terms })
    }
    for (const pkg of own) {
      if (pkg.is_available !== 1 || pkg.merge_to !== null) continue
      const terms = purchaseTerms(product, pkg, [], locale)
      offers.push({ kind: 'package', product, pkg, social: undefined, terms })
    }
  }
  return offers
}

export interface PriceContext {
  locale: Locale
  lbpRate: number
}

/** action=services: each with its price for 1000 units in the account's currency. */
export async function listServices(
  db: Kysely<Database>,
  user: Pick<UserRow, 'type' | 'currency'>,
  { locale, lbpRate }: PriceContext,
): Promise<V2Service[]> {
  return (await availableOffers(db, locale)).map((offer) => {
    const { product, pkg, social, terms } = offer
    const productName = localized(locale, product.name_en, product.name_ar)
    const single = isFreeFire(terms)
    const minimum = Math.max(1, minimumOf(terms, social?.type))
    const maximum =
      terms.maximum > 0 ? Math.min(terms.maximum, ORDER_QUANTITY_MAX) : ORDER_QUANTITY_MAX
    // The same rule, and the same rounding, as the storefront's price and checkout's charge.
    const rate = orderTotal(priceInput(product, pkg, social), user.type, {
      quantity: 1000,
      crypto: isCrypto(terms),
      currency: user.currency,
      lbpRate,
    })
    return {
      service: offerId(offer),
      name: pkg
        ? localized(locale, pkg.name_en, pkg.name_ar)
        : social
          ? `${productName} — ${social.type}`
          : productName,
      type: single ? 'Package' : 'Default',
      category: productName,
      rate: microsText(rate),
      min: String(single ? 1 : minimum),
      max: String(single ? 1 : Math.max(minimum, maximum)),
      refill: false,
      cancel: false,
      dripfeed: false,
    }
  })
}

// ---- add ------------------------------------------------------------------------------------

/** The item a service id names, whether or not it can be bought now (checkout says that). */
async function findOffer(
  db: Kysely<Database>,
  serviceId: string,
  locale: Locale,
): Promise<Offer | undefined> {
  const parsed = parseServiceId(serviceId)
  if (!parsed) return undefined
  const productById = (id: number) =>
    db.selectFrom('products').selectAll().where('id', '=', id).executeTakeFirst()
  const socialsOf = (productId: number) =>
    db
      .selectFrom('product_additional_services')
      .selectAll()
      .where('product_id', '=', productId)
      .orderBy('position')
      .orderBy('id')
      .execute()

  if (parsed.kind === 'package') {
    const pkg = await db
      .selectFrom('packages')
      .selectAll()
      .where('id', '=', parsed.id)
      .executeTakeFirst()
    const product = pkg && (await productById(pkg.product_id))
    if (!pkg || !product) return undefined
    return {
      kind: 'package',
      product,
      pkg,
      social: undefined,
      terms: purchaseTerms(product, pkg, [], locale),
    }
  }

  if (parsed.kind === 'social') {
    const social = await db
      .selectFrom('product_additional_services')
      .selectAll()
      .where('id', '=', parsed.id)
      .executeTakeFirst()
    const product = social && (await productById(social.product_id))
    if (!social || !product) return undefined
    const terms = purchaseTerms(product, undefined, await socialsOf(product.id), locale)
    return { kind: 'social', product, pkg: undefined, social, terms }
  }

  const product = await productById(parsed.id)
  if (!product) return undefined
  const [socials, counted] = await Promise.all([
    socialsOf(product.id),
    db
      .selectFrom('packages')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('product_id', '=', product.id)
      .executeTakeFirstOrThrow(),
  ])
  // A product bought through its packages, or one service at a time, is not a service itself.
  if (socials.length > 0 || !boughtDirectly(product, Number(counted.n))) return undefined
  return {
    kind: 'product',
    product,
    pkg: undefined,
    social: undefined,
    terms: purchaseTerms(product, undefined, [], locale),
  }
}

/** What a v2 add call may not set itself: the item comes from `service`, and only from it. */
const RESERVED = new Set([
  'key',
  'action',
  'service',
  'link',
  'qty',
  'product_id',
  'package_id',
  'service_type',
  // Drip-feed and custom comments: refused below when given, never passed on.
  'runs',
  'interval',
  'comments',
])

/** A field of the call, as text when it is some (empty or blank counts as not given). */
const given = (fields: Readonly<Record<string, unknown>>, name: string) =>
  typeof fields[name] === 'string' ? fields[name].trim() !== '' : fields[name] !== undefined

/** An add call: its fields as sent, and those the contract reads (V2AddSchema). */
export interface AddRequest {
  fields: Readonly<Record<string, unknown>>
  service?: string | undefined
  link?: string | undefined
  quantity?: string | undefined
  idempotencyKey: string | undefined
}

/**
 * action=add: the order form the storefront would send for this service, filled from the
 * call (`link` into the item's main field; the item's own fields by their names), placed by
 * checkout(). A player number that must have been looked up is looked up first, as the
 * storefront's form does, so a panel needs no extra step. Returns the order's id.
 */
export async function addOrder(
  ctx: CheckoutContext,
  user: UserRow,
  request: AddRequest,
): Promise<number> {
  const offer =
    request.service === undefined
      ? undefined
      : await findOffer(ctx.db, request.service, ctx.wire.locale)
  if (!offer) throw new ApiError(422, 'v2.service.invalid')
  // No service takes them: an order placed as one delivery instead would not be what was paid.
  if (given(request.fields, 'runs') || given(request.fields, 'interval'))
    throw new ApiError(422, 'v2.dripfeed.unavailable')
  if (given(request.fields, 'comments')) throw new ApiError(422, 'v2.comments.unavailable')
  // Keyed by the caller's field names: `__proto__` must be a plain key here.
  const raw: Record<string, unknown> = Object.create(null)
  for (const [name, value] of Object.entries(request.fields))
    if (!RESERVED.has(name)) raw[name] = value
  if (offer.kind === 'package') raw.package_id = String(offer.pkg!.id)
  else raw.product_id = String(offer.product.id)
  if (offer.social) raw.service_type = offer.social.type
  if (request.quantity !== undefined) raw.quantity = request.quantity
  const main = linkField(offer.terms)
  if (main !== undefined && request.link && raw[main] === undefined) raw[main] = request.link

  const number = typeof raw.player_number === 'string' ? raw.player_number.trim() : ''
  if (playerMustBeVerified(offer.terms) && number !== '') {
    try {
      await lookupPlayer(
        ctx.db,
        ctx.provider,
        { kind: 'id', id: offer.terms.thirdPartyApiId! },
        number,
        {
          userId: user.id,
          productId: offer.product.id,
          now: ctx.now,
        },
      )
    } catch (err) {
      if (err instanceof ProviderError)
        throw new ApiError(503, 'player.unavailable', undefined, { cause: err })
      throw err
    }
  }

  const reply = await checkout(ctx, user, {
    form: orderForm(raw),
    playerNameQuery: undefined,
    idempotencyKey: request.idempotencyKey,
  })
  return reply.data.id
}

// ---- status and balance ---------------------------------------------------------------------

/** An order with what a Partial left undelivered (order_partials), if any. */
type StatusRow = OrderRow & { partial_remains: number | null }

/**
 * Completed is done (Partial when some of it was refunded, with the remains); everything else
 * is still to be delivered (a canceled one was refunded).
 */
export function orderStatus(order: StatusRow): V2OrderStatus {
  const done = order.status === 'COMPLETED'
  const partial = done && order.partial_remains !== null
  return {
    charge: microsText(order.total_price),
    start_count: '0',
    status: partial
      ? 'Partial'
      : done
        ? 'Completed'
        : order.status === 'CANCELED'
          ? 'Canceled'
          : 'Pending',
    remains: String(partial ? order.partial_remains : done ? 0 : order.quantity),
    currency: order.currency,
  }
}

/** The caller's own orders among these ids; another customer's is as unknown as a missing one. */
async function ownOrders(db: Kysely<Database>, userId: number, ids: number[]) {
  if (ids.length === 0) return new Map<number, StatusRow>()
  const rows = await db
    .selectFrom('orders')
    .leftJoin('order_partials', 'order_partials.order_id', 'orders.id')
    .selectAll('orders')
    .select('order_partials.remains as partial_remains')
    .where('user_id', '=', userId)
    .where('id', 'in', ids)
    .execute()
  return new Map(rows.map((row) => [row.id, row]))
}

const orderId = (text: string) => (V2_ORDER_ID.test(text) ? Number(text) : undefined)

/** action=status with `order`: its status, or undefined when it is not the caller's. */
export async function oneOrderStatus(
  db: Kysely<Database>,
  userId: number,
  text: string,
): Promise<V2OrderStatus | undefined> {
  const id = orderId(text)
  const order = id === undefined ? undefined : (await ownOrders(db, userId, [id])).get(id)
  return order && orderStatus(order)
}

/** An `orders` (or `refills`) list: each id as sent, once, at most V2_STATUS_MAX_ORDERS (422). */
function sentIds(list: string): string[] {
  const texts = [
    ...new Set(
      list
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  ]
  if (texts.length > V2_STATUS_MAX_ORDERS)
    throw new ApiError(422, 'v2.orders.too_many', { max: V2_STATUS_MAX_ORDERS })
  return texts
}

/** The caller's own orders among the ids of a list, by the id as sent. */
async function ownOrdersSent(db: Kysely<Database>, userId: number, texts: string[]) {
  const found = await ownOrders(
    db,
    userId,
    texts.map(orderId).filter((id) => id !== undefined),
  )
  return (text: string) => {
    const id = orderId(text)
    return id === undefined ? undefined : found.get(id)
  }
}

/**
 * action=status with `orders=1,2,3`: each id as sent, with its status or an error. At most
 * V2_STATUS_MAX_ORDERS ids (422 beyond).
 */
export async function manyOrderStatuses(
  db: Kysely<Database>,
  userId: number,
  list: string,
  unknown: string,
): Promise<V2MultiStatusReply> {
  const texts = sentIds(list)
  const orderOf = await ownOrdersSent(db, userId, texts)
  const reply: V2MultiStatusReply = {}
  for (const text of texts) {
    const order = orderOf(text)
    reply[text] = order ? orderStatus(order) : { error: unknown }
  }
  return reply
}

/** An id as the caller sent it, as panels echo it: a number when it is one. */
export const sentId = (text: string): number | string => orderId(text) ?? text

/**
 * action=refill and action=cancel, which no service of the store allows (`refill` and
 * `cancel` are false in services): each order of the list refused, with why. Another
 * customer's order is as unknown as a missing one.
 */
export async function refusedOrders(
  db: Kysely<Database>,
  userId: number,
  list: string,
  { unknown, refused }: { unknown: string; refused: string },
): Promise<{ order: number | string; error: string }[]> {
  const texts = sentIds(list)
  const orderOf = await ownOrdersSent(db, userId, texts)
  return texts.map((text) => ({ order: sentId(text), error: orderOf(text) ? refused : unknown }))
}

/** The ids of a refill_status call, each as sent: the store makes no refills. */
export const refillIds = (list: string) => sentIds(list).map(sentId)
