import { Hono, type Context } from 'hono'
import { ENDPOINTS as E, type Reply } from '../../src/contract/endpoints'
import { toMicros } from '../../src/domain/money'
import { ApiError, parseFields, TooManyRequestsError, type FieldMessages } from '../core/errors'
import { idParam } from '../core/paging'
import { formBodyLimit, photoBodyLimit, readFields, validForm } from '../http/body'
import { requireOperator, type ConsoleEnv } from '../http/console-auth'
import type { AppEnv } from '../http/env'
import { sameOriginOnly } from '../http/same-origin'
import { t } from '../i18n'
import {
  catalogueOverview,
  setAvailability,
  setPrices,
  type CatalogueItemKind,
} from '../services/catalogue-admin'
import { CatalogueError, issuesByPath, readCatalogueText } from '../services/catalogue-file'
import { catalogueText, exportCatalogue, importCatalogue } from '../services/catalogue-transfer'
import { minutesUntil } from '../services/codes'
import { consoleActor } from '../services/operators'
import {
  createPromo,
  disablePromo,
  listPromos,
  promoExpiry,
  promoWire,
} from '../services/promo-codes'
import { hitRateLimit } from '../services/rate-limit'
import { listSliderImages } from '../services/site'
import { removePhoto, storePhoto } from '../services/receipts'
import { addSlide, moveSlide, removeSlide, SLIDER_MEDIA_PREFIX } from '../services/slider'

/*
 * The console's catalogue screen and promo codes (docs/api.md, Console: catalogue). Prices and
 * the catalogue file are the owner's (the issue: an operator cannot change prices); any
 * operator may put an item on or off sale, arrange the slider and make or stop promo codes.
 * Each write calls the service the CLI's command calls, audited in its transaction.
 */

const PRICE_FIELDS: Record<string, FieldMessages> = {
  company_price: { label: 'field.company_price' },
  company_percentage: { label: 'field.company_percentage' },
  product_percentage: { label: 'field.product_percentage' },
}
const PROMO_FIELDS: Record<string, FieldMessages> = {
  code: { label: 'field.promo_code', invalid: 'validation.promo_code' },
  value: { label: 'field.value' },
  currency: { label: 'field.currency' },
  uses: { label: 'field.uses' },
  expires: { label: 'field.expires' },
}

/** Promo codes one operator may make in an hour: a stolen session cannot print money. */
const PROMOS_PER_HOUR = 60
/** A catalogue file: the demo's is about 150 KB. */
const CATALOGUE_FILE_MAX = 8 * 1024 * 1024

const operator = requireOperator()
const owner = requireOperator('owner')
const limit = formBodyLimit()

const who = (c: Context<ConsoleEnv>) => ({
  actor: consoleActor(c.var.operator),
  now: c.var.clock.now(),
})

/** The id the path names, or 404. */
function pathId(c: Context<ConsoleEnv>): number {
  const id = idParam(c.req.param('id'))
  if (id === undefined) throw new ApiError(404, 'errors.not_found')
  return id
}

const itemName = (c: Context<ConsoleEnv>, item: { name_en: string; name_ar: string }) =>
  c.var.locale === 'ar' ? item.name_ar || item.name_en : item.name_en

function availability(kind: CatalogueItemKind) {
  return async (c: Context<ConsoleEnv>) => {
    const { available } = parseFields(E.consoleProductAvailability.body, await readFields(c), {})
    const item = await setAvailability(c.var.db, kind, pathId(c), available === '1', who(c))
    const reply: Reply<'consoleProductAvailability'> = {
      message: t(
        c.var.locale,
        item.is_available ? 'console.now_available' : 'console.now_unavailable',
        {
          name: itemName(c, item),
        },
      ),
      data: item,
    }
    return c.json(reply)
  }
}

function prices(kind: CatalogueItemKind) {
  return async (c: Context<ConsoleEnv>) => {
    const input = parseFields(E.consoleProductPrices.body, await readFields(c), PRICE_FIELDS)
    const item = await setPrices(
      c.var.db,
      kind,
      pathId(c),
      {
        companyPrice: toMicros(input.company_price),
        companyPercentage: toMicros(input.company_percentage),
        productPercentage: toMicros(input.product_percentage),
      },
      who(c),
    )
    const reply: Reply<'consoleProductPrices'> = {
      message: t(c.var.locale, 'console.prices_saved', { name: itemName(c, item) }),
      data: item,
    }
    return c.json(reply)
  }
}

export const adminCatalogueRoutes = new Hono<AppEnv>()
  .get(E.consoleCatalogue.path, operator, async (c) => {
    const reply: Reply<'consoleCatalogue'> = {
      data: { currency: 'USD', products: await catalogueOverview(c.var.db) },
    }
    return c.json(reply)
  })
  .get(E.consoleCatalogueExport.path, operator, async (c) => {
    const day = c.var.clock.now().toISOString().slice(0, 10)
    c.header('Content-Type', 'application/json; charset=utf-8')
    c.header('Content-Disposition', `attachment; filename="catalogue-${day}.json"`)
    return c.body(catalogueText(await exportCatalogue(c.var.db)))
  })
  .post(
    E.consoleCatalogueImport.path,
    owner,
    sameOriginOnly,
    formBodyLimit(CATALOGUE_FILE_MAX),
    async (c) => {
      const { file } = parseFields(E.consoleCatalogueImport.body, await readFields(c), {})
      if (!file || file.size === 0) throw new ApiError(422, 'console.catalogue_file_missing')
      let catalogue
      try {
        catalogue = readCatalogueText(await file.text())
      } catch (err) {
        if (!(err instanceof CatalogueError)) throw err
        const line = err.issues[0]?.line ?? 1
        return c.json(
          {
            message: t(c.var.locale, 'console.catalogue_refused', { line }),
            errors: issuesByPath(err.issues),
          },
          422,
        )
      }
      const result = await importCatalogue(c.var.db, catalogue, who(c))
      const reply: Reply<'consoleCatalogueImport'> = {
        message: t(c.var.locale, 'console.catalogue_imported', {
          products: result.products,
          packages: result.packages,
        }),
        data: result,
      }
      return c.json(reply)
    },
  )
  .post(E.consoleProductAvailability.path, operator, sameOriginOnly, limit, availability('product'))
  .post(E.consolePackageAvailability.path, operator, sameOriginOnly, limit, availability('package'))
  .post(E.consoleProductPrices.path, owner, sameOriginOnly, limit, prices('product'))
  .post(E.consolePackagePrices.path, owner, sameOriginOnly, limit, prices('package'))
  .get(E.consoleSlider.path, operator, async (c) => {
    const reply: Reply<'consoleSlider'> = { data: await listSliderImages(c.var.db) }
    return c.json(reply)
  })
  .post(E.consoleSliderAdd.path, operator, sameOriginOnly, photoBodyLimit, async (c) => {
    const { config, db, locale } = c.var
    const { image } = parseFields(E.consoleSliderAdd.body, await readFields(c), {})
    if (!image || image.size === 0) throw new ApiError(422, 'console.slider_missing')
    // Checked and re-encoded as a receipt is; nothing is kept when it is refused.
    const file = await storePhoto(
      config.sliderDir,
      new Uint8Array(await image.arrayBuffer()),
      config.receipts,
    )
    let data
    try {
      data = await addSlide(db, `${SLIDER_MEDIA_PREFIX}${file}`, who(c))
    } catch (err) {
      await removePhoto(config.sliderDir, file)
      throw err
    }
    const reply: Reply<'consoleSliderAdd'> = { message: t(locale, 'console.slider_added'), data }
    return c.json(reply)
  })
  .post(
    E.consoleSliderMove.path,
    operator,
    sameOriginOnly,
    limit,
    validForm(E.consoleSliderMove.body, {}),
    async (c) => {
      const { direction } = c.req.valid('form')
      const reply: Reply<'consoleSliderMove'> = {
        message: t(c.var.locale, 'console.slider_moved'),
        data: await moveSlide(c.var.db, pathId(c), direction, who(c)),
      }
      return c.json(reply)
    },
  )
  .delete(E.consoleSliderRemove.path, operator, sameOriginOnly, async (c) => {
    const reply: Reply<'consoleSliderRemove'> = {
      message: t(c.var.locale, 'console.slider_removed'),
      data: await removeSlide(c.var.db, pathId(c), who(c)),
    }
    return c.json(reply)
  })
  .get(E.consolePromoCodes.path, operator, async (c) => {
    const reply: Reply<'consolePromoCodes'> = {
      data: (await listPromos(c.var.db)).map(promoWire),
    }
    return c.json(reply)
  })
  .post(
    E.consolePromoCreate.path,
    operator,
    sameOriginOnly,
    limit,
    validForm(E.consolePromoCreate.body, PROMO_FIELDS),
    async (c) => {
      const input = c.req.valid('form')
      const { now, actor } = who(c)
      const counted = await hitRateLimit(c.var.db, {
        key: `console-promo:${c.var.operator.id}`,
        limit: PROMOS_PER_HOUR,
        windowMs: 60 * 60_000,
        now,
      })
      if (!counted.allowed)
        throw new TooManyRequestsError('errors.rate_limited', counted.retryAfterMs / 1000, {
          minutes: minutesUntil(now.getTime() + counted.retryAfterMs, now.getTime()),
        })
      const promo = await createPromo(
        c.var.db,
        {
          code: input.code,
          value: toMicros(input.value),
          currency: input.currency,
          usesAllowed: Number(input.uses),
          expiresAt: input.expires ? promoExpiry(input.expires) : null,
        },
        { now, actor },
      )
      const reply: Reply<'consolePromoCreate'> = {
        message: t(c.var.locale, 'promo.created', { code: promo.code }),
        data: promoWire(promo),
      }
      return c.json(reply)
    },
  )
  .post(E.consolePromoDisable.path, operator, sameOriginOnly, async (c) => {
    const { changed, promo } = await disablePromo(c.var.db, pathId(c), who(c))
    if (!changed) throw new ApiError(409, 'promo.disabled_already')
    const reply: Reply<'consolePromoDisable'> = {
      message: t(c.var.locale, 'promo.disabled', { code: promo.code }),
      data: promoWire(promo),
    }
    return c.json(reply)
  })
