import { Hono, type Context } from 'hono'
import type * as v from 'valibot'
import {
  CurrencyPayloadSchema,
  LocalePayloadSchema,
  type CurrencyReplySchema,
  type ProfileReplySchema,
} from '../../src/contract/profile'
import type { MessageReply } from '../../src/contract/common'
import { ApiTokenPayloadSchema, type ApiTokenReply } from '../../src/contract/token'
import type { UserRow } from '../db/schema'
import { requireUser, requireUserOrApiToken } from '../http/auth'
import { formBodyLimit, readFields } from '../http/body'
import type { AppEnv } from '../http/env'
import { tokenSaveLimit } from '../http/limits'
import { parseFields } from '../core/errors'
import { t } from '../i18n'
import { revealApiToken, saveApiToken, TOKEN_FIELDS } from '../services/api-tokens'
import { ACCOUNT_FIELDS, toProfile } from '../services/users'
import { changeCurrency } from '../services/wallet'

const limit = formBodyLimit()

/** The profile with the API token in clear (the row keeps it sealed). */
const profileOf = async <E extends AppEnv>(c: Context<E>, user: UserRow) =>
  toProfile(user, await revealApiToken(c.var.db, c.var.config.tokenSecret, user))

/**
 * The signed-in user's own account. `test` (the page's path) on GET profile is ignored. An API
 * token may read the profile (its balance); every change here needs a session (requireUser
 * answers an API token 403).
 */
export const profileRoutes = new Hono<AppEnv>()
  .get('/profile', requireUserOrApiToken, async (c) => {
    const reply: v.InferOutput<typeof ProfileReplySchema> = {
      data: await profileOf(c, c.var.user),
    }
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
      data: await profileOf(c, user),
    }
    return c.json(reply)
  })
  .post('/user/token', limit, requireUser, tokenSaveLimit, async (c) => {
    const payload = parseFields(ApiTokenPayloadSchema, await readFields(c), TOKEN_FIELDS)
    const saved = await saveApiToken(c.var.db, c.var.config.tokenSecret, c.var.user.id, payload)
    const reply: ApiTokenReply = { message: t(c.var.locale, 'token.saved'), data: saved }
    return c.json(reply)
  })
