import { api } from '../../api/client'
import type { FormValue } from '../../api/form-data'
import type * as Auth from '../../contract/auth'
import type { Locale } from '../../contract/common'
import type { Currency } from '../../contract/profile'

// Reply schemas (and valibot), loaded with the reply: the sign-in, sign-up and recovery pages
// are first loads too.
const auth =
  <K extends keyof typeof Auth>(name: K) =>
  () =>
    import('../../contract/auth').then((contract) => contract[name])
const MessageReplySchema = () =>
  import('../../contract/common').then((contract) => contract.MessageReplySchema)
const CurrencyReplySchema = () =>
  import('../../contract/profile').then((contract) => contract.CurrencyReplySchema)
const ApiTokenReplySchema = () =>
  import('../../contract/token').then((contract) => contract.ApiTokenReplySchema)

type Body = Record<string, FormValue>

export const authApi = {
  checkLogin: (body: Body) =>
    api.post('login', auth('CodeSentReplySchema'), { query: { check: 1 }, body }),
  validateSignup: (body: Body) =>
    api.post('signup', auth('CodeSentReplySchema'), { query: { validate: 1 }, body }),
  login: (body: Body) => api.post('login', auth('TokenReplySchema'), { query: { auth: 1 }, body }),
  signup: (body: Body) =>
    api.post('signup', auth('TokenReplySchema'), { query: { auth: 1 }, body }),
  sendResetCode: (email: string) =>
    api.post('send/verification-code', auth('ResetSentReplySchema'), { body: { email } }),
  checkResetCode: (email: string, code: string) =>
    api.post('check/verification-code', auth('CodeCheckReplySchema'), {
      body: { email, verification_code: code },
    }),
  resetPassword: (body: Body) => api.post('reset-password', MessageReplySchema, { body }),
  resetPasswordByLink: (body: Body) =>
    api.post('reset-password-link', MessageReplySchema, { body }),
  logout: () => api.post('logout', MessageReplySchema),
  changeLocale: (locale: Locale) =>
    api.post('change/locale', MessageReplySchema, { body: { locale } }),
  changeCurrency: (currency: Currency, locale: Locale) =>
    api.post('change-currency', CurrencyReplySchema, { body: { currency, locale } }),
  saveToken: (body: { token: string; ip_whitelist: string }) =>
    api.post('user/token', ApiTokenReplySchema, { body }),
}
