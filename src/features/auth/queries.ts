import { api } from '../../api/client'
import type { FormValue } from '../../api/form-data'
import {
  CodeCheckReplySchema,
  CodeSentReplySchema,
  ResetSentReplySchema,
  TokenReplySchema,
} from '../../contract/auth'
import { CurrencyReplySchema, type Currency } from '../../contract/profile'
import { MessageReplySchema, type Locale } from '../../contract/common'
import { ApiTokenReplySchema } from '../../contract/token'

type Body = Record<string, FormValue>

export const authApi = {
  checkLogin: (body: Body) => api.post('login', CodeSentReplySchema, { query: { check: 1 }, body }),
  validateSignup: (body: Body) =>
    api.post('signup', CodeSentReplySchema, { query: { validate: 1 }, body }),
  login: (body: Body) => api.post('login', TokenReplySchema, { query: { auth: 1 }, body }),
  signup: (body: Body) => api.post('signup', TokenReplySchema, { query: { auth: 1 }, body }),
  sendResetCode: (email: string) =>
    api.post('send/verification-code', ResetSentReplySchema, { body: { email } }),
  checkResetCode: (email: string, code: string) =>
    api.post('check/verification-code', CodeCheckReplySchema, {
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
