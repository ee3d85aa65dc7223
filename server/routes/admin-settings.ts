import { Hono, type Context } from 'hono'
import { ENDPOINTS as E, type Reply } from '../../src/contract/endpoints'
import { perKey, receiptKeys, setKeys, type SetMethodKey } from '../../src/contract/payment-methods'
import { toMicros } from '../../src/domain/money'
import { formBodyLimit, validForm } from '../http/body'
import { requireOperator, type ConsoleEnv } from '../http/console-auth'
import type { AppEnv } from '../http/env'
import { sameOriginOnly } from '../http/same-origin'
import { t } from '../i18n'
import { consoleActor } from '../services/operators'
import {
  readSettings,
  SETTINGS_FIELDS,
  updateContactInfo,
  updatePaymentSettings,
  updateSiteTexts,
} from '../services/settings'

/*
 * The console's Settings (docs/api.md, Console: Settings): the owner's only. Each form is
 * saved whole through the service the CLI's `settings:payments` calls, audited with what it
 * was and became; the reply holds all the settings as they now are.
 */

const owner = requireOperator('owner')
/** The about text in two languages is longer than a usual form. */
const TEXTS_BODY_BYTES = 256 * 1024

async function saved(c: Context<ConsoleEnv>) {
  const reply: Reply<'consoleSavePayments'> = {
    message: t(c.var.locale, 'console.settings_saved'),
    data: await readSettings(c.var.db, c.var.config.chains),
  }
  return c.json(reply)
}

const by = (c: Context<ConsoleEnv>) => ({
  now: c.var.clock.now(),
  actor: consoleActor(c.var.operator),
})

export const adminSettingsRoutes = new Hono<AppEnv>()
  .get(E.consoleSettings.path, owner, async (c) => {
    const reply: Reply<'consoleSettings'> = {
      data: await readSettings(c.var.db, c.var.config.chains),
    }
    return c.json(reply)
  })
  .post(
    E.consoleSavePayments.path,
    owner,
    sameOriginOnly,
    formBodyLimit(),
    validForm(E.consoleSavePayments.body, SETTINGS_FIELDS),
    async (c) => {
      const form = c.req.valid('form')
      const tax = (key: `${SetMethodKey}_tax`) => Number(toMicros(form[key]))
      await updatePaymentSettings(
        c.var.db,
        {
          usdt_trc20: form.usdt_trc20 ?? null,
          usdt_bep20: form.usdt_bep20 ?? null,
          ...perKey(setKeys('_on'), (key) => Number(form[key])),
          ...perKey(setKeys('_tax'), tax),
          ...perKey(receiptKeys('_text'), (key) => form[key] ?? null),
          ...perKey(receiptKeys('_text_ar'), (key) => form[key] ?? null),
        },
        by(c),
      )
      return saved(c)
    },
  )
  .post(
    E.consoleSaveContact.path,
    owner,
    sameOriginOnly,
    formBodyLimit(),
    validForm(E.consoleSaveContact.body, SETTINGS_FIELDS),
    async (c) => {
      await updateContactInfo(c.var.db, c.req.valid('form'), by(c))
      return saved(c)
    },
  )
  .post(
    E.consoleSaveTexts.path,
    owner,
    sameOriginOnly,
    formBodyLimit(TEXTS_BODY_BYTES),
    validForm(E.consoleSaveTexts.body, SETTINGS_FIELDS),
    async (c) => {
      const form = c.req.valid('form')
      await updateSiteTexts(
        c.var.db,
        {
          about_us_text_en: form.about_us_text_en ?? '',
          about_us_text_ar: form.about_us_text_ar ?? '',
        },
        by(c),
      )
      return saved(c)
    },
  )
