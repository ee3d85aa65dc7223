import { Hono, type Context } from 'hono'
import { getCookie, setCookie } from 'hono/cookie'
import type * as v from 'valibot'
import { ENDPOINTS as E, type Reply } from '../../src/contract/endpoints'
import { normalisePhone } from '../../src/domain/phone'
import { requireUser } from '../http/auth'
import { formBodyLimit, readFields, validForm } from '../http/body'
import { clientAddressKey } from '../http/client-ip'
import type { AppEnv } from '../http/env'
import { signupLimit } from '../http/limits'
import { sameOriginOnly } from '../http/same-origin'
import { ApiError } from '../core/errors'
import { parseFields, ValidationError, type FieldProblem } from '../core/errors'
import { t } from '../i18n'
import {
  checkLogin,
  completeLogin,
  completeSignup,
  startSignup,
  type Credentials,
} from '../services/auth'
import type { RequestMeta, SignedIn } from '../services/auth-codes'
import {
  checkResetCode,
  resetPassword,
  resetPasswordByLink,
  sendResetCode,
} from '../services/password-recovery'
import { DEVICE_COOKIE, DEVICE_COOKIE_MAX_AGE_S } from '../services/device-cookie'
import { revokeSession } from '../services/sessions'
import { ACCOUNT_FIELDS } from '../services/users'

/** `?auth=1` and friends: present and not 0/false. */
function flag(c: Context, name: string): boolean {
  const value = c.req.query(name)
  return value !== undefined && value !== '0' && value !== 'false'
}

const meta = (c: Context<AppEnv>): RequestMeta => ({
  locale: c.var.locale,
  // IPv6 by its /64: every limit keyed by the address counts a whole customer line as one.
  ip: clientAddressKey(c, c.var.config.trustProxy),
  device: getCookie(c, DEVICE_COOKIE),
})

/**
 * The device cookie of a browser that signed in (services/device-cookie.ts): only this API's
 * sign-in reads it (Path=/api), never a script (HttpOnly), never another site's request.
 */
function keepDevice(c: Context<AppEnv>, { device }: SignedIn) {
  setCookie(c, DEVICE_COOKIE, device, {
    path: '/api',
    httpOnly: true,
    sameSite: 'Strict',
    secure: c.var.config.nodeEnv === 'production',
    maxAge: DEVICE_COOKIE_MAX_AGE_S,
  })
}

/**
 * The sign-in form sends a username or a phone number; the code step may send both, and
 * then the username decides.
 */
function credentials<S extends typeof E.loginCheck.body | typeof E.login.body>(
  fields: Record<string, unknown>,
  schema: S,
): { creds: Credentials; input: v.InferOutput<S> } {
  const given = (k: string) => typeof fields[k] === 'string' && fields[k].trim() !== ''
  const missing: FieldProblem[] =
    given('username') || given('phone_number')
      ? []
      : [{ field: 'username', id: 'validation.login.required' }]
  let input: v.InferOutput<S>
  try {
    input = parseFields(schema, fields, ACCOUNT_FIELDS)
  } catch (err) {
    if (err instanceof ValidationError) {
      throw new ValidationError([...missing, ...err.problems], ACCOUNT_FIELDS)
    }
    throw err
  }
  if (missing.length > 0) throw new ValidationError(missing, ACCOUNT_FIELDS)
  const username = input.username || undefined
  const phone = input.phone_number || undefined
  const creds: Credentials = {
    username,
    // A number that is no valid number belongs to nobody: the same answer as a wrong one.
    phone_number: username || !phone ? undefined : (normalisePhone(phone) ?? undefined),
    password: input.password,
  }
  return { creds, input }
}

function assertConfirmed(input: { password: string; password_confirmation: string }) {
  if (input.password_confirmation !== input.password) {
    throw new ValidationError(
      [{ field: 'password_confirmation', id: 'validation.password.confirmation' }],
      ACCOUNT_FIELDS,
    )
  }
}

const limit = formBodyLimit()

export const authRoutes = new Hono<AppEnv>()
  .post(E.signup.path, sameOriginOnly, signupLimit, limit, async (c) => {
    // One path, two calls: the query says which body to read (the table's `variant`).
    const fields = await readFields(c)
    if (flag(c, 'auth')) {
      const input = parseFields(E.signup.body, fields, ACCOUNT_FIELDS)
      const signedIn = await completeSignup(c.var, input, meta(c))
      keepDevice(c, signedIn)
      const reply: Reply<'signup'> = {
        message: t(c.var.locale, 'auth.signed_up'),
        token: signedIn.token,
      }
      return c.json(reply)
    }
    if (flag(c, 'validate')) {
      const input = parseFields(E.signupValidate.body, fields, ACCOUNT_FIELDS)
      const data = await startSignup(c.var, input, meta(c))
      const reply: Reply<'signupValidate'> = { message: t(c.var.locale, 'auth.code_sent'), data }
      return c.json(reply)
    }
    throw new ApiError(400, 'errors.bad_request')
  })
  .post(E.login.path, sameOriginOnly, limit, async (c) => {
    const fields = await readFields(c)
    if (flag(c, 'auth')) {
      const { creds, input } = credentials(fields, E.login.body)
      const signedIn = await completeLogin(
        c.var,
        {
          ...creds,
          verification_code: input.verification_code,
          fcm_token: input.fcm_token || undefined,
        },
        meta(c),
      )
      keepDevice(c, signedIn)
      const reply: Reply<'login'> = {
        message: t(c.var.locale, 'auth.signed_in'),
        token: signedIn.token,
      }
      return c.json(reply)
    }
    if (flag(c, 'check')) {
      const { creds } = credentials(fields, E.loginCheck.body)
      const data = await checkLogin(c.var, creds, meta(c))
      const reply: Reply<'loginCheck'> = { message: t(c.var.locale, 'auth.code_sent'), data }
      return c.json(reply)
    }
    throw new ApiError(400, 'errors.bad_request')
  })
  .post(
    E.sendResetCode.path,
    sameOriginOnly,
    limit,
    validForm(E.sendResetCode.body, ACCOUNT_FIELDS),
    async (c) => {
      const { email } = c.req.valid('form')
      // PUBLIC_URL in production (required there); elsewhere the address this was asked on.
      const publicUrl = c.var.config.publicUrl ?? new URL(c.req.url).origin
      const { paused } = await sendResetCode(c.var, email, { ...meta(c), publicUrl })
      const reply: Reply<'sendResetCode'> = {
        message: t(c.var.locale, paused ? 'auth.reset_link_sent' : 'auth.reset_sent'),
        data: { code_sent: !paused },
      }
      return c.json(reply)
    },
  )
  .post(
    E.checkResetCode.path,
    limit,
    validForm(E.checkResetCode.body, ACCOUNT_FIELDS),
    async (c) => {
      const input = c.req.valid('form')
      const isValid = await checkResetCode(c.var, input.email, input.verification_code, meta(c))
      const reply: Reply<'checkResetCode'> = { data: { is_valid: isValid } }
      return c.json(reply)
    },
  )
  .post(E.resetPassword.path, limit, validForm(E.resetPassword.body, ACCOUNT_FIELDS), async (c) => {
    const input = c.req.valid('form')
    assertConfirmed(input)
    await resetPassword(c.var, input, meta(c))
    const reply: Reply<'resetPassword'> = { message: t(c.var.locale, 'auth.password_reset') }
    return c.json(reply)
  })
  .post(
    E.resetPasswordByLink.path,
    limit,
    validForm(E.resetPasswordByLink.body, ACCOUNT_FIELDS),
    async (c) => {
      const input = c.req.valid('form')
      assertConfirmed(input)
      await resetPasswordByLink(c.var, input)
      const reply: Reply<'resetPasswordByLink'> = {
        message: t(c.var.locale, 'auth.password_reset'),
      }
      return c.json(reply)
    },
  )
  .post(E.logout.path, requireUser, async (c) => {
    await revokeSession(c.var.db, c.var.sessionId, c.var.clock.now())
    const reply: Reply<'logout'> = { message: t(c.var.locale, 'auth.signed_out') }
    return c.json(reply)
  })
