import { Hono } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import type * as v from 'valibot'
import {
  PromoChargeSchema,
  ReceiptChargeSchema,
  UsdtRequestSchema,
  type OpenUsdtPaymentReplySchema,
  type UsdtPaymentReplySchema,
  type ChargeReplySchema,
  type ChargingProcessReplySchema,
  type PaymentInfoReplySchema,
  type PaymentLogReplySchema,
} from '../../src/contract/wallet'
import { fromMicros, toMicros } from '../../src/domain/money'
import { requireUser } from '../http/auth'
import { formBodyLimit, readFields } from '../http/body'
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
  paymentInfoWire,
  paymentSettings,
  redeemPromoCounted,
  assertFewWaiting,
} from '../services/charging'
import { findPaymentLog, listPaymentLogs, paymentLogWire } from '../services/payment-logs'
import { megabytes, readReceipt, removeReceipt, storeReceipt } from '../services/receipts'
import { findRequest, openRequest, requestUsdt, usdtWire } from '../services/usdt'

type Wire<S extends v.GenericSchema> = v.InferInput<S>

const CHARGE_FIELDS: Record<string, FieldMessages> = {
  name: { label: 'field.method' },
  value: { label: 'field.value', invalid: 'validation.amount' },
  promo_code: { label: 'field.promo_code' },
  amount: { label: 'field.value', invalid: 'validation.amount' },
  network: { label: 'field.network' },
}

/** The wallet's history, its top-ups and what the charging page offers. */
export const walletRoutes = new Hono<AppEnv>()
  .get('/payments/info', publicCache(60), async (c) => {
    const reply: Wire<typeof PaymentInfoReplySchema> = {
      data: paymentInfoWire(await paymentSettings(c.var.db), c.var.config.chains),
    }
    return c.json(reply)
  })
  .post('/wallet/request-payment', formBodyLimit(), requireUser, async (c) => {
    const { db, user, config, locale } = c.var
    const input = parseFields(UsdtRequestSchema, await readFields(c), CHARGE_FIELDS)
    const now = c.var.clock.now()
    const request = await requestUsdt(
      db,
      user,
      { amount: toMicros(input.amount), network: input.network },
      { chains: config.chains, timing: config.usdt, now },
    )
    const reply: Wire<typeof UsdtPaymentReplySchema> = {
      ...usdtWire(request, now),
      message: t(locale, 'usdt.requested'),
    }
    return c.json(reply)
  })
  .get('/wallet/open-payment', requireUser, async (c) => {
    const now = c.var.clock.now()
    const open = await openRequest(c.var.db, c.var.user.id, now)
    const reply: Wire<typeof OpenUsdtPaymentReplySchema> = {
      data: open ? usdtWire(open, now) : null,
    }
    return c.json(reply)
  })
  .get('/wallet/check-payment/:id', requireUser, async (c) => {
    const id = idParam(c.req.param('id'))
    const request = id === undefined ? undefined : await findRequest(c.var.db, c.var.user.id, id)
    if (!request) throw new ApiError(404, 'usdt.not_found')
    const reply: Wire<typeof UsdtPaymentReplySchema> = usdtWire(request, c.var.clock.now())
    return c.json(reply)
  })
  .get('/payment-logs', requireUser, async (c) =>
    c.json(await listPaymentLogs(c.var.db, c.var.user, c.req.query(), c.var.config.storeTimeZone)),
  )
  .get('/payment-logs/:id', requireUser, async (c) => {
    const id = idParam(c.req.param('id'))
    const log = id === undefined ? undefined : await findPaymentLog(c.var.db, c.var.user.id, id)
    if (!log) throw new ApiError(404, 'payment_log.not_found')
    const reply: Wire<typeof PaymentLogReplySchema> = {
      data: paymentLogWire(log, c.var.config.storeTimeZone),
    }
    return c.json(reply)
  })
  .get('/charging-processes', requireUser, async (c) =>
    c.json(await listCharges(c.var.db, c.var.user.id, c.req.query(), c.var.config.storeTimeZone)),
  )
  .get('/charging-processes/:id', requireUser, async (c) => {
    const id = idParam(c.req.param('id'))
    const charge = id === undefined ? undefined : await findCharge(c.var.db, c.var.user.id, id)
    if (!charge) throw new ApiError(404, 'charging.not_found')
    const reply: Wire<typeof ChargingProcessReplySchema> = {
      data: chargeWire(charge, c.var.config.storeTimeZone),
    }
    return c.json(reply)
  })
  .get('/charging-processes/:id/receipt', requireUser, async (c) => {
    const id = idParam(c.req.param('id'))
    const charge = id === undefined ? undefined : await findCharge(c.var.db, c.var.user.id, id)
    if (!charge?.receipt_file) throw new ApiError(404, 'charging.not_found')
    const bytes = await readReceipt(c.var.config.receipts.dir, charge.receipt_file)
    c.header('Content-Type', 'image/jpeg')
    // The owner's own file: never kept by a shared cache.
    c.header('Cache-Control', 'private, max-age=3600')
    return c.body(new Uint8Array(bytes))
  })
  .post(
    '/charging-processes',
    requireUser,
    // A receipt and a few fields; a file beyond the limit is refused before it is read whole.
    (c, next) =>
      bodyLimit({
        maxSize: c.var.config.receipts.maxBytes + 64 * 1024,
        onError: (ctx) =>
          ctx.json(
            {
              message: t(c.var.locale, 'charging.receipt.too_large', {
                max: megabytes(c.var.config.receipts.maxBytes),
              }),
            },
            413,
          ),
      })(c, next),
    async (c) => {
      const { db, user, locale, config } = c.var
      const now = c.var.clock.now()
      const fields = await readFields(c)
      if (c.req.query('name')?.toUpperCase() === 'PROMO_CODE') {
        const { promo_code } = parseFields(PromoChargeSchema, fields, CHARGE_FIELDS)
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
        const reply: Wire<typeof ChargeReplySchema> = {
          message: t(locale, 'promo.redeemed'),
          data: chargeWire(charge, config.storeTimeZone),
          balance: fromMicros(after.balance),
        }
        return c.json(reply)
      }

      const input = parseFields(ReceiptChargeSchema, fields, CHARGE_FIELDS)
      const image = fields.image
      if (!(image instanceof File) || image.size === 0)
        throw new ApiError(422, 'charging.receipt.missing')
      // Before the photo is decoded: a customer with enough waiting costs no more CPU.
      await assertFewWaiting(db, user.id, config.waitingReceiptsPerUser)
      const file = await storeReceipt(
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
        await removeReceipt(config.receipts.dir, file)
        throw err
      }
      const reply: Wire<typeof ChargeReplySchema> = {
        message: t(locale, 'charging.created'),
        data: chargeWire(charge, config.storeTimeZone),
        balance: fromMicros(user.balance),
      }
      return c.json(reply)
    },
  )
