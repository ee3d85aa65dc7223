import { Hono } from 'hono'
import type * as v from 'valibot'
import {
  CurrencyPayloadSchema,
  LocalePayloadSchema,
  type CurrencyReplySchema,
  type ProfileReplySchema,
} from '../../src/contract/auth'
import type { MessageReply } from '../../src/contract/common'
import { requireUser } from '../http/auth'
import { formBodyLimit, readFields } from '../http/body'
import type { AppEnv } from '../http/env'
import { parseFields } from '../http/validation'
import { t } from '../i18n'
import { ACCOUNT_FIELDS, toProfile } from '../services/users'
import { changeCurrency } from '../services/wallet'

const limit = formBodyLimit()

/** The signed-in user's own account. `test` (the page's path) on GET profile is ignored. */
export const profileRoutes = new Hono<AppEnv>()
  .get('/profile', requireUser, (c) => {
    const reply: v.InferOutput<typeof ProfileReplySchema> = { data: toProfile(c.var.user) }
    return c.json(reply)
  })
  .post('/change/locale', limit, requireUser, async (c) => {
    const { locale } = parseFields(LocalePayloadSchema, await readFields(c), ACCOUNT_FIELDS)
    await c.var.db.updateTable('users').set({ locale }).where('id', '=', c.var.user.id).execute()
    // Said in the language just chosen: that is the one the user reads from now on.
    const reply: MessageReply = { message: t(locale, 'profile.locale_changed') }
    return c.json(reply)
  })
  .post('/change-currency', limit, requireUser, async (c) => {
    const { currency } = parseFields(CurrencyPayloadSchema, await readFields(c), ACCOUNT_FIELDS)
    const user = await changeCurrency(c.var.db, c.var.user.id, currency, {
      rate: c.var.config.lbpRate,
      now: c.var.clock.now(),
    })
    const reply: v.InferOutput<typeof CurrencyReplySchema> = {
      message: t(c.var.locale, 'profile.currency_changed'),
      data: toProfile(user),
    }
    return c.json(reply)
  })
