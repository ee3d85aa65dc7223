import { Hono, type Context } from 'hono'
import { ENDPOINTS as E, type Reply } from '../../src/contract/endpoints'
import type { UserRow } from '../db/schema'
import { requireUser, requireUserOrApiToken } from '../http/auth'
import { formBodyLimit, validForm } from '../http/body'
import type { AppEnv } from '../http/env'
import { tokenSaveLimit } from '../http/limits'
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
  .get(E.profile.path, requireUserOrApiToken, async (c) => {
    const reply: Reply<'profile'> = {
      data: await profileOf(c, c.var.user),
    }
    return c.json(reply)
  })
  .post(
    E.changeLocale.path,
    limit,
    requireUser,
    validForm(E.changeLocale.body, ACCOUNT_FIELDS),
    async (c) => {
      const { locale } = c.req.valid('form')
      await c.var.db.updateTable('users').set({ locale }).where('id', '=', c.var.user.id).execute()
      // Said in the language just chosen: that is the one the user reads from now on.
      const reply: Reply<'changeLocale'> = { message: t(locale, 'profile.locale_changed') }
      return c.json(reply)
    },
  )
  .post(
    E.changeCurrency.path,
    limit,
    requireUser,
    validForm(E.changeCurrency.body, ACCOUNT_FIELDS),
    async (c) => {
      const { currency } = c.req.valid('form')
      const user = await changeCurrency(c.var.db, c.var.user.id, currency, {
        rate: c.var.config.lbpRate,
        now: c.var.clock.now(),
      })
      const reply: Reply<'changeCurrency'> = {
        message: t(c.var.locale, 'profile.currency_changed'),
        data: await profileOf(c, user),
      }
      return c.json(reply)
    },
  )
  .post(
    E.saveApiToken.path,
    limit,
    requireUser,
    tokenSaveLimit,
    validForm(E.saveApiToken.body, TOKEN_FIELDS),
    async (c) => {
      const payload = c.req.valid('form')
      const saved = await saveApiToken(c.var.db, c.var.config.tokenSecret, c.var.user.id, payload)
      const reply: Reply<'saveApiToken'> = { message: t(c.var.locale, 'token.saved'), data: saved }
      return c.json(reply)
    },
  )
