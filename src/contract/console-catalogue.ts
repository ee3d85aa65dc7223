import * as v from 'valibot'
import { AmountSchema } from './catalogue'
import { ImageSchema } from './common'
import type { Endpoint } from './endpoint'
import { CurrencySchema } from './profile'

/*
 * The console's catalogue and promo codes (docs/api.md, Console): availability and prices of
 * products and packages, the catalogue file in and out, the slider, promo codes.
 */

/** A price or percentage as typed: a plain decimal, at most 6 decimals (src/domain/money). */
export const DECIMAL_PATTERN = /^\d{1,12}(\.\d{1,6})?$/
const DecimalSchema = v.pipe(v.string(), v.trim(), v.minLength(1), v.regex(DECIMAL_PATTERN))

/** A percentage is at most this (a markup of 1000 % is a typo, not a price). */
export const PERCENTAGE_MAX = 1000

const PercentageSchema = v.pipe(
  DecimalSchema,
  v.check((s) => Number(s) <= PERCENTAGE_MAX),
)

/** POST admin/catalogue/{products|packages}/{id}/availability */
export const AvailabilitySchema = v.object({ available: v.picklist(['0', '1']) })

/** POST admin/catalogue/{products|packages}/{id}/prices (owner): the stored price fields. */
export const PricesSchema = v.object({
  company_price: DecimalSchema,
  company_percentage: PercentageSchema,
  product_percentage: PercentageSchema,
})

const ItemSchema = v.object({
  id: v.number(),
  name_en: v.string(),
  name_ar: v.string(),
  is_available: v.boolean(),
  /** The base price in the catalogue's currency (USD), and the markups in percent. */
  company_price: AmountSchema,
  company_percentage: AmountSchema,
  product_percentage: AmountSchema,
})
export type ConsoleItem = v.InferOutput<typeof ItemSchema>

/** GET admin/catalogue */
export const ConsoleCatalogueReplySchema = v.object({
  data: v.object({
    currency: CurrencySchema,
    products: v.array(
      v.object({ ...ItemSchema.entries, number: v.number(), packages: v.array(ItemSchema) }),
    ),
  }),
})
export type ConsoleCatalogue = v.InferOutput<typeof ConsoleCatalogueReplySchema>['data']

/** The availability and prices replies: the row as it is now. */
export const ConsoleItemReplySchema = v.object({ message: v.string(), data: ItemSchema })

const KindChangesSchema = v.object({ added: v.number(), removed: v.number(), changed: v.number() })

/** POST admin/catalogue/import (owner): a multipart `file`, as catalogue:export writes it. */
export const CatalogueImportSchema = v.object({
  file: v.fallback(v.optional(v.instance(Blob)), undefined),
})
export const CatalogueImportReplySchema = v.object({
  message: v.string(),
  data: v.object({
    groups: v.number(),
    products: v.number(),
    packages: v.number(),
    images: v.number(),
    services: v.number(),
    changes: v.object({
      groups: KindChangesSchema,
      products: KindChangesSchema,
      packages: KindChangesSchema,
      rows: v.array(
        v.object({
          kind: v.picklist(['group', 'product', 'package']),
          id: v.number(),
          name_en: v.string(),
          name_ar: v.string(),
          change: v.picklist(['added', 'removed', 'changed']),
        }),
      ),
    }),
  }),
})
export type CatalogueImportResult = v.InferOutput<typeof CatalogueImportReplySchema>['data']

/** GET admin/slider, and the slider after a change */
export const ConsoleSliderReplySchema = v.object({
  message: v.optional(v.string()),
  data: v.array(ImageSchema),
})

/** POST admin/slider: a picture (JPEG, PNG or WebP) put last on the slider. */
export const SliderAddSchema = v.object({
  image: v.fallback(v.optional(v.instance(Blob)), undefined),
})

/** POST admin/slider/{id}/move */
export const SliderMoveSchema = v.object({ direction: v.picklist(['up', 'down']) })

// ---- promo codes ----------------------------------------------------------------------------

/** A code: 3 to 64 letters, digits, - or _ (case does not count when it is redeemed). */
export const PROMO_CODE_PATTERN = /^[\p{L}\p{N}_-]{3,64}$/u
export const PROMO_USES_PATTERN = /^[1-9]\d{0,8}$/
export const DAY_PATTERN = /^\d{4}-\d{2}-\d{2}$/

/** POST admin/promo-codes */
export const NewPromoSchema = v.object({
  code: v.pipe(v.string(), v.trim(), v.minLength(1), v.regex(PROMO_CODE_PATTERN)),
  value: v.pipe(
    DecimalSchema,
    v.check((s) => Number(s) > 0),
  ),
  currency: v.optional(CurrencySchema, 'USD'),
  uses: v.pipe(v.string(), v.trim(), v.minLength(1), v.regex(PROMO_USES_PATTERN)),
  /** The last day it may be used (YYYY-MM-DD, UTC), or none. */
  expires: v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.regex(DAY_PATTERN),
      v.check((s) => !Number.isNaN(Date.parse(`${s}T00:00:00Z`))),
    ),
  ),
})

export const PromoCodeSchema = v.object({
  id: v.number(),
  code: v.string(),
  value: AmountSchema,
  currency: CurrencySchema,
  uses: v.number(),
  uses_allowed: v.number(),
  expires_at: v.nullable(v.string()),
  disabled_at: v.nullable(v.string()),
  created_at: v.string(),
})
export type PromoCode = v.InferOutput<typeof PromoCodeSchema>

/** GET admin/promo-codes: newest first */
export const PromoListReplySchema = v.object({ data: v.array(PromoCodeSchema) })
/** POST admin/promo-codes and admin/promo-codes/{id}/disable */
export const PromoReplySchema = v.object({ message: v.string(), data: PromoCodeSchema })

/** This area's calls, spread into ENDPOINTS (endpoints.ts). */
export const CONSOLE_CATALOGUE_ENDPOINTS = {
  consoleCatalogue: {
    method: 'GET',
    path: '/admin/catalogue',
    auth: 'operator',
    reply: ConsoleCatalogueReplySchema,
  },
  consoleCatalogueExport: {
    method: 'GET',
    path: '/admin/catalogue/export',
    auth: 'operator',
    reply: 'file',
  },
  consoleCatalogueImport: {
    method: 'POST',
    path: '/admin/catalogue/import',
    auth: 'owner',
    body: CatalogueImportSchema,
    reply: CatalogueImportReplySchema,
  },
  consoleProductAvailability: {
    method: 'POST',
    path: '/admin/catalogue/products/:id/availability',
    auth: 'operator',
    body: AvailabilitySchema,
    reply: ConsoleItemReplySchema,
  },
  consolePackageAvailability: {
    method: 'POST',
    path: '/admin/catalogue/packages/:id/availability',
    auth: 'operator',
    body: AvailabilitySchema,
    reply: ConsoleItemReplySchema,
  },
  consoleProductPrices: {
    method: 'POST',
    path: '/admin/catalogue/products/:id/prices',
    auth: 'owner',
    body: PricesSchema,
    reply: ConsoleItemReplySchema,
  },
  consolePackagePrices: {
    method: 'POST',
    path: '/admin/catalogue/packages/:id/prices',
    auth: 'owner',
    body: PricesSchema,
    reply: ConsoleItemReplySchema,
  },
  consoleSlider: {
    method: 'GET',
    path: '/admin/slider',
    auth: 'operator',
    reply: ConsoleSliderReplySchema,
  },
  consoleSliderAdd: {
    method: 'POST',
    path: '/admin/slider',
    auth: 'operator',
    body: SliderAddSchema,
    reply: ConsoleSliderReplySchema,
  },
  consoleSliderMove: {
    method: 'POST',
    path: '/admin/slider/:id/move',
    auth: 'operator',
    body: SliderMoveSchema,
    reply: ConsoleSliderReplySchema,
  },
  consoleSliderRemove: {
    method: 'DELETE',
    path: '/admin/slider/:id',
    auth: 'operator',
    reply: ConsoleSliderReplySchema,
  },
  consolePromoCodes: {
    method: 'GET',
    path: '/admin/promo-codes',
    auth: 'operator',
    reply: PromoListReplySchema,
  },
  consolePromoCreate: {
    method: 'POST',
    path: '/admin/promo-codes',
    auth: 'operator',
    body: NewPromoSchema,
    reply: PromoReplySchema,
  },
  consolePromoDisable: {
    method: 'POST',
    path: '/admin/promo-codes/:id/disable',
    auth: 'operator',
    reply: PromoReplySchema,
  },
} as const satisfies Record<string, Endpoint>
