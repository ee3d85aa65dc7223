import { Hono } from 'hono'
import { ENDPOINTS as E, type Reply } from '../../src/contract/endpoints'
import { fromMicros, toMicros } from '../../src/domain/money'
import { requireUser } from '../http/auth'
import { formBodyLimit, photoBodyLimit, readFields, validForm } from '../http/body'
import { clientAddressKey } from '../http/client-ip'
import { publicCache } from '../http/cache'
import type { AppEnv } from '../http/env'
import { ApiError } from '../core/errors'
import { idParam } from '../core/paging'
import { parseFields, type FieldMessages } from '../core/errors'
import { t } from '../i18n'
import {
  chargeWire,
  createReceiptCharge,
  findCharge,
  listCharges,
  redeemPromoCounted,
  assertFewWaiting,
} from '../services/charging'
import { paymentInfoWire, paymentSettings } from '../services/settings'
import { findPaymentLog, listPaymentLogs, paymentLogWire } from '../services/payment-logs'
import { readPhoto, removePhoto, storePhoto } from '../services/receipts'
import { findRequest, openRequest, requestUsdt, usdtWire } from '../services/usdt'

const CHARGE_FIELDS: Record<string, FieldMessages> = {
  name: { label: 'field.method' },
  value: { label: 'field.value', invalid: 'validation.amount' },
  promo_code: { label: 'field.promo_code' },
  amount: { label: 'field.value', invalid: 'validation.amount' },
  network: { label: 'field.network' },
}

/** The wallet's history, its top-ups and what the charging page offers. */
export const walletRoutes = new Hono<AppEnv>()
  .get(E.paymentInfo.path, publicCache(60), async (c) => {
    const reply: Reply<'paymentInfo'> = {
      data: paymentInfoWire(await paymentSettings(c.var.db), c.var.config.chains, c.var.locale),
    }
    return c.json(reply)
  })
  .post(
    E.requestUsdt.path,
    formBodyLimit(),
    requireUser,
    validForm(E.requestUsdt.body, CHARGE_FIELDS),
    async (c) => {
      const { db, user, config, locale } = c.var
      const input = c.req.valid('form')
      const now = c.var.clock.now()
      const request = await requestUsdt(
        db,
        user,
        { amount: toMicros(input.amount), network: input.network },
        { chains: config.chains, timing: config.usdt, now },
      )
      const reply: Reply<'requestUsdt'> = {
        ...usdtWire(request, now),
        message: t(locale, 'usdt.requested'),
      }
      return c.json(reply)
    },
  )
  .get(E.openUsdtPayment.path, requireUser, async (c) => {
    const now = c.var.clock.now()
    const open = await openRequest(c.var.db, c.var.user.id, now)
    const reply: Reply<'openUsdtPayment'> = {
      data: open ? usdtWire(open, now) : null,
    }
    return c.json(reply)
  })
  .get(E.usdtPayment.path, requireUser, async (c) => {
    const id = idParam(c.req.param('id'))
    const request = id === undefined ? undefined : await findRequest(c.var.db, c.var.user.id, id)
    if (!request) throw new ApiError(404, 'usdt.not_found')
    const reply: Reply<'usdtPayment'> = usdtWire(request, c.var.clock.now())
    return c.json(reply)
  })
  .get(E.paymentLogs.path, requireUser, async (c) =>
    c.json(
      await listPaymentLogs(c.var.db, c.var.user, c.req.query(), {
        timeZone: c.var.config.storeTimeZone,
        locale: c.var.locale,
      }),
    ),
  )
  .get(E.paymentLog.path, requireUser, async (c) => {
    const id = idParam(c.req.param('id'))
    const log = id === undefined ? undefined : await findPaymentLog(c.var.db, c.var.user.id, id)
    if (!log) throw new ApiError(404, 'payment_log.not_found')
    const reply: Reply<'paymentLog'> = {
      data: paymentLogWire(log, c.var.config.storeTimeZone, c.var.locale),
    }
    return c.json(reply)
  })
  .get(E.charges.path, requireUser, async (c) =>
    c.json(await listCharges(c.var.db, c.var.user.id, c.req.query(), c.var.config.storeTimeZone)),
  )
  .get(E.charge.path, requireUser, async (c) => {
    const id = idParam(c.req.param('id'))
    const charge = id === undefined ? undefined : await findCharge(c.var.db, c.var.user.id, id)
    if (!charge) throw new ApiError(404, 'charging.not_found')
    const reply: Reply<'charge'> = {
      data: chargeWire(charge, c.var.config.storeTimeZone),
    }
    return c.json(reply)
  })
  .get(E.receipt.path, requireUser, async (c) => {
    const id = idParam(c.req.param('id'))
    const charge = id === undefined ? undefined : await findCharge(c.var.db, c.var.user.id, id)
    if (!charge?.receipt_file) throw new ApiError(404, 'charging.not_found')
    const bytes = await readPhoto(c.var.config.receipts.dir, charge.receipt_file)
    c.header('Content-Type', 'image/jpeg')
    // The owner's own file: never kept by a shared cache.
    c.header('Cache-Control', 'private, max-age=3600')
    return c.body(new Uint8Array(bytes))
  })
  .post(E.receiptCharge.path, requireUser, photoBodyLimit, async (c) => {
    const { db, user, locale, config } = c.var
    const now = c.var.clock.now()
    // One path, two calls: the query says which body to read (the table's `variant`).
    const fields = await readFields(c)
    if (c.req.query('name')?.toUpperCase() === E.promoCharge.variant.name) {
      const { promo_code } = parseFields(E.promoCharge.body, fields, CHARGE_FIELDS)
      const { charge, user: after } = await redeemPromoCounted(
        db,
        { userId: user.id, ip: clientAddressKey(c, config.trustProxy) },
        promo_code,
        {
          rate: config.lbpRate,
          now,
          limits: {
            perUser: config.rateLimits.promoFailuresPerUser,
            perIp: config.rateLimits.promoFailuresPerIp,
          },
        },
      )
      const reply: Reply<'promoCharge'> = {
        message: t(locale, 'promo.redeemed'),
        data: chargeWire(charge, config.storeTimeZone),
        balance: fromMicros(after.balance),
      }
      return c.json(reply)
    }

    const input = parseFields(E.receiptCharge.body, fields, CHARGE_FIELDS)
    const image = input.image
    if (!image || image.size === 0) throw new ApiError(422, 'charging.receipt.missing')
    // Before the photo is decoded: a customer with enough waiting costs no more CPU.
    await assertFewWaiting(db, user.id, config.waitingReceiptsPerUser)
    const file = await storePhoto(
      config.receipts.dir,
      new Uint8Array(await image.arrayBuffer()),
      config.receipts,
    )
    let charge
    try {
      charge = await createReceiptCharge(
        db,
        user,
        { name: input.name, value: toMicros(input.value), receiptFile: file },
        { now, maxWaiting: config.waitingReceiptsPerUser },
      )
    } catch (err) {
      // Nothing was recorded: nothing is kept.
      await removePhoto(config.receipts.dir, file)
      throw err
    }
    const reply: Reply<'receiptCharge'> = {
      message: t(locale, 'charging.created'),
      data: chargeWire(charge, config.storeTimeZone),
      balance: fromMicros(user.balance),
    }
    return c.json(reply)
  })
