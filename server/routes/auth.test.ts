import * as v from 'valibot'
import { describe, expect, it, vi } from 'vitest'
import {
  CodeCheckReplySchema,
  CodeSentReplySchema,
  TokenReplySchema,
} from '../../src/contract/auth'
import { ProfileReplySchema } from '../../src/contract/profile'
import { MessageReplySchema, ValidationErrorReplySchema } from '../../src/contract/common'
import { createApp } from '../app'
import { DeliveryError, type Delivery, type Sender } from '../adapters/delivery'
import { createDelivery } from '../adapters/senders'
import type { Config } from '../config'
import { createDb } from '../db'
import { createLogger } from '../log'
import { demoSeed } from '../demo/seed'
import { PasswordHasher } from '../services/passwords'
import { hashToken } from '../services/sessions'
import { freshUser, lastCode, outbox, postForm, signIn, signUp, wrongCode } from '../test/accounts'
import { describeEachDatabase, testPasswords } from '../test/context'

const MINUTE = 60_000
const silent = createLogger('silent')

describeEachDatabase('accounts API', (ctx) => {
  const post = (path: string, fields: Record<string, string | undefined> = {}, token?: string) =>
    postForm(ctx.app, path, fields, { token })
  const profile = (token: string) =>
    ctx.app.request('/api/profile?test=/wallet', { headers: { authorization: `Bearer ${token}` } })
  const body = async (res: Response) => (await res.json()) as Record<string, unknown>

  describe('sign-up', () => {
    it('validates, sends a WhatsApp code, then creates a customer whose token works', async () => {
      const user = freshUser()
      // Typed the Lebanese way with the trunk 0: stored and answered in E.164.
      const typed = { ...user, phone_number: user.phone_number.replace('+961', '9610') }
      const started = await post('signup?validate=1&local=en', typed)
      expect(started.status).toBe(200)
      expect(v.parse(CodeSentReplySchema, await started.json())).toEqual({
        message: 'A verification code has been sent to your phone number.',
        data: { phone_number: user.phone_number },
      })
      const [sent] = await outbox(ctx.app, user.phone_number)
      expect(sent).toMatchObject({ to: user.phone_number, channel: 'whatsapp', purpose: 'signup' })
      expect(sent!.code).toMatch(/^\d{4}$/)
      expect(sent!.body).toContain(sent!.code)
      expect(sent!.body).toContain('10 minutes')

      // Nothing is created before the code step.
      const none = await ctx.db
        .selectFrom('users')
        .select('id')
        .where('phone_number', '=', user.phone_number)
        .execute()
      expect(none).toEqual([])

      const done = await post('signup?auth=1&local=ar', {
        ...typed,
        verification_code: sent!.code,
        // A sign-up can never make a company account, whatever the form says.
        type: 'COMPANY',
      })
      expect(done.status).toBe(200)
      const reply = v.parse(TokenReplySchema, await done.json())
      expect(reply.message).toBe('تم إنشاء حسابك.')
      expect(reply.token).toMatch(/^[A-Za-z0-9_-]{43}$/)

      const me = await profile(reply.token)
      expect(me.status).toBe(200)
      expect(v.parse(ProfileReplySchema, await me.json()).data).toEqual({
        username: user.username,
        email: user.email,
        balance: 0,
        currency: 'USD',
        locale: 'ar',
        phone_number: user.phone_number,
        new_notifications_count: 0,
        token: null,
        ip_whitelist: null,
        type: 'CUSTOMER',
      })
      ctx.clock.advance(61_000)
    })

    it('keeps only hashes: of the password, the code and the session token', async () => {
      const { token, user } = await signUp(ctx)
      const row = await ctx.db
        .selectFrom('users')
        .selectAll()
        .where('username', '=', user.username)
        .executeTakeFirstOrThrow()
      expect(row.password_hash).toMatch(
        /^\$scrypt\$ln=\d+,r=8,p=1\$[A-Za-z0-9+/]+\$[A-Za-z0-9+/]+$/,
      )
      expect(row.password_hash).not.toContain(user.password)
      const sessions = await ctx.db
        .selectFrom('sessions')
        .select('token_hash')
        .where('user_id', '=', row.id)
        .execute()
      expect(sessions).toEqual([{ token_hash: hashToken(token) }])
      const code = await lastCode(ctx.app, user.phone_number)
      const codes = await ctx.db
        .selectFrom('verification_codes')
        .select('code_hash')
        .where('recipient', '=', user.phone_number)
        .execute()
      expect(codes.length).toBeGreaterThan(0)
      for (const c of codes) expect(c.code_hash).toMatch(/^[0-9a-f]{64}$/)
      expect(JSON.stringify(codes)).not.toContain(`"${code}"`)
    })

    it('refuses a taken username (any case), phone number or e-mail, at both steps', async () => {
      const { user } = await signUp(ctx)
      const other = freshUser()
      const res = await post('signup?validate=1', {
        ...other,
        username: user.username.toUpperCase(),
        phone_number: user.phone_number.replace('+', ''),
        email: user.email.toUpperCase(),
      })
      expect(res.status).toBe(422)
      const reply = v.parse(ValidationErrorReplySchema, await res.json())
      expect(reply.errors).toEqual({
        email: ['This email is already registered'],
        username: ['This username is already taken'],
        phone_number: ['This phone number is already registered'],
      })
      expect(reply.message).toBe('This email is already registered')
      expect(await outbox(ctx.app, other.phone_number)).toEqual([])

      // Someone takes the username between the two steps of another sign-up.
      const late = freshUser()
      expect((await post('signup?validate=1', late)).status).toBe(200)
      const code = await lastCode(ctx.app, late.phone_number)
      await signUp(ctx, { ...freshUser(), username: late.username })
      const taken = await post('signup?auth=1', { ...late, verification_code: code })
      expect(taken.status).toBe(422)
      expect(v.parse(ValidationErrorReplySchema, await taken.json()).errors).toEqual({
        username: ['This username is already taken'],
      })
    })

    it('refuses a username that only looks like a taken one (NFKC, confusables)', async () => {
      const { user } = await signUp(ctx, { ...freshUser(), username: 'paypal_shop' })
      for (const lookalike of [
        '\u0440\u0430\u0443\u0440\u0430l_shop', // Cyrillic р, а, у
        '\uff50\uff41\uff59\uff50\uff41\uff4c_shop', // full-width Latin
        'PAYPAL_SHOP',
        'paypa1_shop', // the digit one
      ]) {
        const res = await post('signup?validate=1', { ...freshUser(), username: lookalike })
        expect(res.status, lookalike).toBe(422)
        expect(v.parse(ValidationErrorReplySchema, await res.json()).errors, lookalike).toEqual({
          username: ['This username is already taken'],
        })
      }
      // Signing in by a look-alike of the name finds the account too.
      const checked = await post('login?check=1', {
        username: '\uff50\uff41\uff59\uff50\uff41\uff4c_shop',
        password: user.password,
      })
      expect(checked.status).toBe(200)
      expect(v.parse(CodeSentReplySchema, await checked.json()).data.phone_number).toBe(
        user.phone_number,
      )
      ctx.clock.advance(61_000)
      // Different names stay different.
      expect((await post('signup?validate=1', freshUser())).status).toBe(200)
      ctx.clock.advance(61_000)
    })

    it('answers 400 without ?validate=1 or ?auth=1', async () => {
      const res = await post('signup', freshUser())
      expect(res.status).toBe(400)
      v.parse(MessageReplySchema, await res.json())
    })

    it('rejects a wrong code without creating the account', async () => {
      const user = freshUser()
      await post('signup?validate=1', user)
      const code = await lastCode(ctx.app, user.phone_number)
      const res = await post('signup?auth=1', { ...user, verification_code: wrongCode(code) })
      expect(res.status).toBe(422)
      expect(v.parse(ValidationErrorReplySchema, await res.json())).toEqual({
        message: 'The verification code is incorrect.',
        errors: { verification_code: ['The verification code is incorrect.'] },
      })
      const found = await ctx.db
        .selectFrom('users')
        .select('id')
        .where('phone_number', '=', user.phone_number)
        .execute()
      expect(found).toEqual([])
      ctx.clock.advance(61_000)
    })
  })

  describe('the exact messages, in English and Arabic', () => {
    const cases: {
      name: string
      path: string
      body: () => Record<string, string>
      en: Record<string, string>
      ar: Record<string, string>
    }[] = [
      {
        name: 'empty sign-up',
        path: 'signup?validate=1',
        body: () => ({}),
        en: {
          email: 'Email field is required',
          username: 'Username field is required',
          phone_number: 'Phone number field is required',
          password: 'Password must be at least 8 characters long',
        },
        ar: {
          email: 'حقل البريد الإلكتروني مطلوب',
          username: 'حقل اسم المستخدم مطلوب',
          phone_number: 'حقل رقم الهاتف مطلوب',
          password: 'يجب أن تتكون كلمة المرور من 8 أحرف على الأقل',
        },
      },
      {
        name: 'badly formed sign-up',
        path: 'signup?validate=1',
        body: () => ({
          email: 'someone@nowhere',
          username: 'has space',
          phone_number: '12',
          password: 'short',
        }),
        en: {
          email: 'Invalid email format',
          username: 'The username may contain only letters, digits, dots, dashes and underscores',
          phone_number: 'The phone number is not valid',
          password: 'Password must be at least 8 characters long',
        },
        ar: {
          email: 'صيغة البريد الإلكتروني غير صحيحة',
          username: 'يجب أن يتكوّن اسم المستخدم من حروف وأرقام ونقاط وشرطات وشرطات سفلية فقط',
          phone_number: 'رقم الهاتف غير صالح',
          password: 'يجب أن تتكون كلمة المرور من 8 أحرف على الأقل',
        },
      },
      {
        name: 'sign-up with taken details',
        path: 'signup?validate=1',
        body: () => {
          const demo = demoSeed.users[0]
          return {
            email: demo.email,
            username: demo.username,
            phone_number: demo.phone_number,
            password: 'long-enough',
          }
        },
        en: {
          email: 'This email is already registered',
          username: 'This username is already taken',
          phone_number: 'This phone number is already registered',
        },
        ar: {
          email: 'هذا البريد الإلكتروني مسجَّل بالفعل',
          username: 'اسم المستخدم هذا مأخوذ بالفعل',
          phone_number: 'رقم الهاتف هذا مسجَّل بالفعل',
        },
      },
      {
        name: 'empty sign-in',
        path: 'login?check=1',
        body: () => ({}),
        en: {
          username: 'Username or Phone Number field is required',
          password: 'Password must be at least 8 characters long',
        },
        ar: {
          username: 'حقل اسم المستخدم أو رقم الهاتف مطلوب',
          password: 'يجب أن تتكون كلمة المرور من 8 أحرف على الأقل',
        },
      },
      {
        name: 'code step with a malformed code',
        path: 'login?auth=1',
        body: () => ({ username: 'demo', password: 'demo-pass-1', verification_code: '12a4' }),
        en: { verification_code: 'The verification code must be 4 digits' },
        ar: { verification_code: 'يجب أن يتكوّن رمز التحقق من 4 أرقام' },
      },
      {
        name: 'reset with a mismatched confirmation',
        path: 'reset-password',
        body: () => ({
          email: 'demo@example.com',
          verification_code: '1234',
          password: 'new-password-1',
          password_confirmation: 'new-password-2',
        }),
        en: { password_confirmation: 'The password confirmation does not match' },
        ar: { password_confirmation: 'تأكيد كلمة المرور غير مطابق' },
      },
    ]
    for (const c of cases) {
      for (const locale of ['en', 'ar'] as const) {
        it(`${c.name} (${locale})`, async () => {
          const sep = c.path.includes('?') ? '&' : '?'
          const res = await post(`${c.path}${sep}local=${locale}`, c.body())
          expect(res.status).toBe(422)
          const reply = v.parse(ValidationErrorReplySchema, await res.json())
          const expected = c[locale]
          expect(reply.errors).toEqual(
            Object.fromEntries(Object.entries(expected).map(([k, m]) => [k, [m]])),
          )
          expect(reply.message).toBe(Object.values(expected)[0])
        })
      }
    }

    it('says the wrong-credentials message in both languages', async () => {
      for (const [locale, text] of [
        ['en', 'The username, phone number or password is incorrect'],
        ['ar', 'اسم المستخدم أو رقم الهاتف أو كلمة المرور غير صحيحة'],
      ] as const) {
        const res = await post(`login?check=1&local=${locale}`, {
          username: 'demo',
          password: 'not-the-password',
        })
        expect(res.status).toBe(422)
        expect(await res.json()).toEqual({ message: text })
      }
    })
  })

  describe('sign-in', () => {
    it('works by username (any case) and by phone number, storing the FCM token', async () => {
      const { user } = await signUp(ctx)
      const byName = await signIn(
        ctx,
        { username: user.username.toUpperCase(), password: user.password },
        { fcm_token: 'fcm-device-token-1' },
      )
      expect((await profile(byName)).status).toBe(200)
      const session = await ctx.db
        .selectFrom('sessions')
        .select('fcm_token')
        .where('token_hash', '=', hashToken(byName))
        .executeTakeFirstOrThrow()
      expect(session.fcm_token).toBe('fcm-device-token-1')

      const byPhone = await signIn(ctx, {
        phone_number: user.phone_number.replace('+961', '00961'),
        password: user.password,
      })
      expect(byPhone).not.toBe(byName)
      expect(v.parse(ProfileReplySchema, await (await profile(byPhone)).json()).data.username).toBe(
        user.username,
      )
    })

    it('signs in the seeded demo accounts', async () => {
      for (const demo of demoSeed.users) {
        const token = await signIn(ctx, { username: demo.username, password: demo.password })
        const me = v.parse(ProfileReplySchema, await (await profile(token)).json()).data
        expect(me).toMatchObject({
          username: demo.username,
          phone_number: demo.phone_number,
          type: demo.type,
          currency: 'USD',
          // demo has placed orders (demo/seed-orders.ts); acme has its whole credit.
          balance: demo.username === 'demo' ? 84.6155 : Number(demo.balance),
        })
      }
    })

    it('gives one answer for a wrong password and an unknown user, and sends no code', async () => {
      const { user } = await signUp(ctx)
      const before = (await outbox(ctx.app, user.phone_number)).length
      const answers = []
      for (const creds of [
        { username: user.username, password: 'wrong-password' },
        { phone_number: user.phone_number, password: 'wrong-password' },
        { username: 'nobody_here', password: user.password },
        { phone_number: '+96171999999', password: user.password },
        { phone_number: 'not a number', password: user.password },
      ]) {
        const res = await post('login?check=1', creds)
        answers.push([res.status, await res.json()])
      }
      for (const answer of answers) {
        expect(answer).toEqual([
          422,
          { message: 'The username, phone number or password is incorrect' },
        ])
      }
      expect((await outbox(ctx.app, user.phone_number)).length).toBe(before)

      // The code step checks the password again.
      await post('login?check=1', { username: user.username, password: user.password })
      const code = await lastCode(ctx.app, user.phone_number)
      const res = await post('login?auth=1', {
        username: user.username,
        password: 'wrong-password',
        verification_code: code,
      })
      expect(res.status).toBe(422)
      expect(await body(res)).toEqual({
        message: 'The username, phone number or password is incorrect',
      })
      ctx.clock.advance(61_000)
    })

    it('costs one hash for the first unknown user after start too, like a wrong password', async () => {
      const fresh = new PasswordHasher({ ln: 10, r: 8, p: 1 })
      const app = createApp({ db: ctx.db, config: ctx.config, clock: ctx.clock, passwords: fresh })
      const hash = vi.spyOn(fresh, 'hash')
      const verify = vi.spyOn(fresh, 'verify')
      const res = await postForm(app, 'login?check=1', {
        username: 'nobody_at_start',
        password: 'whatever-1',
      })
      expect(res.status).toBe(422)
      // The dummy hash was made when the app was created, not during this request.
      expect(hash).not.toHaveBeenCalled()
      expect(verify).toHaveBeenCalledTimes(1)
    })

    it('upgrades a password hashed under weaker settings at the next sign-in', async () => {
      const { user } = await signUp(ctx)
      const stronger = new PasswordHasher({ ln: 11, r: 8, p: 1 })
      const app = createApp({
        db: ctx.db,
        config: ctx.config,
        clock: ctx.clock,
        passwords: stronger,
      })
      const creds = { username: user.username, password: user.password }
      expect((await postForm(app, 'login?check=1', creds)).status).toBe(200)
      const code = await lastCode(ctx.app, user.phone_number)
      const res = await postForm(app, 'login?auth=1', { ...creds, verification_code: code })
      expect(res.status).toBe(200)
      const row = await ctx.db
        .selectFrom('users')
        .select('password_hash')
        .where('username', '=', user.username)
        .executeTakeFirstOrThrow()
      expect(row.password_hash).toMatch(/^\$scrypt\$ln=11,r=8,p=1\$/)
      expect(await stronger.verify(user.password, row.password_hash)).toBe(true)
      ctx.clock.advance(61_000)
    })

    it('takes the username when the code step sends both username and phone number', async () => {
      const { user } = await signUp(ctx)
      const other = (await signUp(ctx)).user
      await post('login?check=1', { username: user.username, password: user.password })
      const code = await lastCode(ctx.app, user.phone_number)
      const res = await post('login?auth=1', {
        username: user.username,
        phone_number: other.phone_number,
        password: user.password,
        verification_code: code,
      })
      expect(res.status).toBe(200)
      const { token } = v.parse(TokenReplySchema, await res.json())
      const me = v.parse(ProfileReplySchema, await (await profile(token)).json()).data
      expect(me.username).toBe(user.username)
      ctx.clock.advance(61_000)
    })
  })

  describe('codes', () => {
    /** login?check=1 for a new account; returns what the code step needs. */
    async function loginCode() {
      const { user } = await signUp(ctx)
      const creds = { username: user.username, password: user.password }
      const res = await post('login?check=1', creds)
      expect(res.status).toBe(200)
      return { user, creds, code: await lastCode(ctx.app, user.phone_number) }
    }

    it('expire after 10 minutes', async () => {
      const { creds, code } = await loginCode()
      ctx.clock.advance(10 * MINUTE + 1000)
      const res = await post('login?auth=1', { ...creds, verification_code: code })
      expect(res.status).toBe(422)
      expect(await body(res)).toEqual({
        message: 'This verification code is no longer valid. Please ask for a new one.',
        errors: {
          verification_code: [
            'This verification code is no longer valid. Please ask for a new one.',
          ],
        },
      })
    })

    it('work once', async () => {
      const { creds, code } = await loginCode()
      expect((await post('login?auth=1', { ...creds, verification_code: code })).status).toBe(200)
      const again = await post('login?auth=1', { ...creds, verification_code: code })
      expect(again.status).toBe(422)
      expect((await body(again)).message).toBe(
        'This verification code is no longer valid. Please ask for a new one.',
      )
      ctx.clock.advance(61_000)
    })

    it('are bound to their purpose', async () => {
      const { user, code } = await loginCode()
      // A login code is no sign-up code, even for the same phone.
      const res = await post('signup?auth=1', {
        ...freshUser(),
        phone_number: user.phone_number,
        verification_code: code,
      })
      expect(res.status).toBe(422)
      ctx.clock.advance(61_000)
    })

    it('die after 5 wrong tries, even for the right code then', async () => {
      const { creds, code, user } = await loginCode()
      for (let i = 0; i < 5; i++) {
        const res = await post('login?auth=1', { ...creds, verification_code: wrongCode(code) })
        expect(res.status).toBe(422)
        expect((await body(res)).message).toBe('The verification code is incorrect.')
      }
      const res = await post('login?auth=1', { ...creds, verification_code: code })
      expect(res.status).toBe(422)
      expect((await body(res)).message).toBe(
        'This verification code is no longer valid. Please ask for a new one.',
      )
      // A new code works.
      ctx.clock.advance(61_000)
      await post('login?check=1', creds)
      const fresh = await lastCode(ctx.app, user.phone_number)
      expect((await post('login?auth=1', { ...creds, verification_code: fresh })).status).toBe(200)
      ctx.clock.advance(61_000)
    })

    it('hold the recipient for the rest of the hour after 10 wrong codes from one address', async () => {
      const { user } = await signUp(ctx)
      const email = user.email
      expect((await post('send/verification-code', { email })).status).toBe(200)
      let code = await lastCode(ctx.app, email)
      const check = (c: string) =>
        post('check/verification-code?local=en', { email, verification_code: c })
      for (let i = 1; i < 10; i++) {
        if (i % 5 === 0) {
          // Five wrong tries kill a code: ask for another one.
          ctx.clock.advance(61_000)
          expect((await post('send/verification-code', { email })).status).toBe(200)
          code = await lastCode(ctx.app, email)
        }
        const res = await check(wrongCode(code))
        expect(res.status, `try ${i}`).toBe(200)
        expect(v.parse(CodeCheckReplySchema, await res.json()).data.is_valid).toBe(false)
      }
      const tenth = await check(wrongCode(code))
      expect(tenth.status).toBe(429)
      expect(await body(tenth)).toEqual({
        message: 'Too many wrong codes. Please try again in 59 minutes.',
      })
      expect(Number(tenth.headers.get('retry-after'))).toBe(3600 - 61)

      // Held: even the right code, a reset, and a new code are refused.
      ctx.clock.advance(5 * MINUTE)
      const right = await check(code)
      expect(right.status).toBe(429)
      expect((await body(right)).message).toBe(
        'Too many wrong codes. Please try again in 54 minutes.',
      )
      const reset = await post('reset-password?local=ar', {
        email,
        verification_code: code,
        password: 'new-password-1',
        password_confirmation: 'new-password-1',
      })
      expect(reset.status).toBe(429)
      expect((await body(reset)).message).toBe(
        'محاولات خاطئة كثيرة. يُرجى المحاولة مرة أخرى بعد 54 دقيقة.',
      )
      // A reset e-mail still goes, with its link alone (the link is not held by codes).
      const held = await post('send/verification-code', { email })
      expect(held.status).toBe(200)
      expect(((await body(held)).data as { code_sent: boolean }).code_sent).toBe(false)

      ctx.clock.advance(54 * MINUTE + 1000)
      expect((await post('send/verification-code', { email })).status).toBe(200)
      const after = await check(await lastCode(ctx.app, email))
      expect(v.parse(CodeCheckReplySchema, await after.json()).data.is_valid).toBe(true)
      ctx.clock.advance(61_000)
    })

    it('a success clears the run of failures', async () => {
      const { user } = await signUp(ctx)
      const email = user.email
      await post('send/verification-code', { email })
      const code = await lastCode(ctx.app, email)
      for (let i = 0; i < 4; i++) {
        await post('check/verification-code', { email, verification_code: wrongCode(code) })
      }
      // The 5th wrong try killed that code; a new one and a right answer reset the run.
      ctx.clock.advance(61_000)
      await post('send/verification-code', { email })
      const second = await lastCode(ctx.app, email)
      const ok = await post('check/verification-code', { email, verification_code: second })
      expect(v.parse(CodeCheckReplySchema, await ok.json()).data.is_valid).toBe(true)
      for (let i = 0; i < 4; i++) {
        const res = await post('check/verification-code', {
          email,
          verification_code: wrongCode(second),
        })
        expect(res.status).toBe(200)
      }
      ctx.clock.advance(61_000)
    })

    it('are not sent again within 60 seconds', async () => {
      const { creds, user } = await loginCode()
      ctx.clock.advance(20_000)
      const early = await post('login?check=1&local=en', creds)
      expect(early.status).toBe(429)
      expect(await body(early)).toEqual({
        message: 'Please wait 40 seconds before asking for a new code.',
      })
      expect(early.headers.get('retry-after')).toBe('40')
      const ar = await post('login?check=1&local=ar', creds)
      expect((await body(ar)).message).toBe('يُرجى الانتظار 40 ثانية قبل طلب رمز جديد.')

      ctx.clock.advance(40_000)
      const resent = await post('login?check=1', creds)
      expect(resent.status).toBe(200)
      expect(v.parse(CodeSentReplySchema, await resent.json()).data.phone_number).toBe(
        user.phone_number,
      )
      ctx.clock.advance(61_000)
    })

    it('are capped at 5 an hour per recipient', async () => {
      const { user } = await signUp(ctx)
      const email = user.email
      // The test clock runs with real time too: a slow machine's seconds count.
      const began = Date.now()
      for (let i = 0; i < 5; i++) {
        const res = await post('send/verification-code', { email })
        expect(res.status, `send ${i + 1}`).toBe(200)
        ctx.clock.advance(61_000)
      }
      const capped = await post('send/verification-code?local=en', { email })
      expect(capped.status).toBe(429)
      // The first send was 5 × 61 s ago: the window reopens 55 minutes from now.
      expect(await body(capped)).toEqual({
        message: 'Too many codes have been requested. Please try again in 55 minutes.',
      })
      const retryAfter = Number(capped.headers.get('retry-after'))
      expect(retryAfter).toBeLessThanOrEqual(3600 - 5 * 61)
      expect(retryAfter).toBeGreaterThanOrEqual(
        3600 - 5 * 61 - Math.ceil((Date.now() - began) / 1000),
      )
      // The same limit holds for an unknown address, so the reply tells nothing.
      ctx.clock.advance(55 * MINUTE)
      expect((await post('send/verification-code', { email })).status).toBe(200)
      ctx.clock.advance(61_000)
    })

    it('are capped at 20 an hour per client address', async () => {
      const app = ctx.appWith({ trustProxy: 1 })
      const from = (ip: string, email: string) =>
        postForm(app, 'send/verification-code', { email }, { headers: { 'x-forwarded-for': ip } })
      for (let i = 0; i < 18; i++) {
        const res = await from('203.0.113.50', `nobody${i}@ip-cap.example.com`)
        expect(res.status, `send ${i + 1}`).toBe(200)
      }
      // Sends 19 to 22 at once, to four addresses: the count holds under concurrency.
      const burst = await Promise.all(
        [19, 20, 21, 22].map((i) => from('203.0.113.50', `nobody${i}@ip-cap.example.com`)),
      )
      expect(burst.map((r) => r.status).sort()).toEqual([200, 200, 429, 429])
      const capped = await from('203.0.113.50', 'one-more@ip-cap.example.com')
      expect(capped.status).toBe(429)
      expect((await body(capped)).message).toMatch(/^Too many codes have been requested/)
      expect((await from('203.0.113.51', 'one-more@ip-cap.example.com')).status).toBe(200)
      ctx.clock.advance(61 * MINUTE)
      expect((await from('203.0.113.50', 'later@ip-cap.example.com')).status).toBe(200)
    })

    it('count as one system across instances: concurrent sends give one code', async () => {
      const { user } = await signUp(ctx)
      const creds = { username: user.username, password: user.password }
      // On PostgreSQL a second pool stands in for a second server instance.
      const other = ctx.dialect === 'postgres' ? createDb(ctx.config) : undefined
      try {
        const second = other
          ? createApp({
              db: other.db,
              config: ctx.config,
              clock: ctx.clock,
              passwords: testPasswords,
            })
          : ctx.app
        const results = await Promise.all(
          [ctx.app, second, ctx.app, second, ctx.app].map((app) =>
            postForm(app, 'login?check=1', creds),
          ),
        )
        const statuses = results.map((r) => r.status).sort()
        expect(statuses).toEqual([200, 429, 429, 429, 429])
      } finally {
        await other?.destroy()
      }
      ctx.clock.advance(61_000)
    })

    it('are keyed by CODE_SECRET, or by a generated key every instance shares', async () => {
      const stored = await ctx.db
        .selectFrom('settings')
        .select('value')
        .where('key', '=', 'code_secret')
        .executeTakeFirstOrThrow()
      expect(stored.value).toMatch(/^[A-Za-z0-9_-]{43}$/)

      const { user } = await signUp(ctx)
      await post('send/verification-code', { email: user.email })
      const code = await lastCode(ctx.app, user.email)
      const check = (app: typeof ctx.app) =>
        postForm(app, 'check/verification-code', { email: user.email, verification_code: code })
      const sameKey = ctx.appWith({ codeSecret: stored.value })
      expect(v.parse(CodeCheckReplySchema, await (await check(sameKey)).json()).data.is_valid).toBe(
        true,
      )
      const otherKey = ctx.appWith({ codeSecret: 'another-secret-of-at-least-32-chars!' })
      expect(
        v.parse(CodeCheckReplySchema, await (await check(otherKey)).json()).data.is_valid,
      ).toBe(false)
      ctx.clock.advance(61_000)
    })

    it('answer 503 when the sender fails, with a message to try again', async () => {
      const failing: Sender = {
        kind: 'whatsapp',
        send: () => Promise.reject(new DeliveryError('down')),
      }
      const delivery: Delivery = { phone: failing, email: failing }
      const app = createApp({
        db: ctx.db,
        config: ctx.config,
        clock: ctx.clock,
        passwords: testPasswords,
        delivery,
      })
      const res = await postForm(app, 'signup?validate=1&local=en', freshUser())
      expect(res.status).toBe(503)
      expect(await res.json()).toEqual({
        message: 'We could not send the code right now. Please try again in a minute.',
      })
      // A real sender means no outbox reader.
      expect((await app.request('/api/dev/outbox')).status).toBe(404)
    })

    it('are written in the language of the request', async () => {
      const user = freshUser()
      await post('signup?validate=1&local=ar', user)
      const [sent] = await outbox(ctx.app, user.phone_number)
      expect(sent!.body).toBe(
        `رمز التحقق الخاص بك هو ${sent!.code}. تنتهي صلاحيته بعد 10 دقائق. لا تشاركه مع أي شخص.`,
      )
      ctx.clock.advance(61_000)
    })
  })

  describe('password recovery', () => {
    it('answers the same for known and unknown e-mails, and mails only the known', async () => {
      const { user } = await signUp(ctx)
      const known = await post('send/verification-code?local=en', {
        email: user.email.toUpperCase(),
      })
      const unknown = await post('send/verification-code?local=en', {
        email: 'no-account@example.com',
      })
      expect(known.status).toBe(200)
      expect(unknown.status).toBe(known.status)
      const knownBody = await known.text()
      expect(await unknown.text()).toBe(knownBody)
      expect(JSON.parse(knownBody)).toEqual({
        message: 'If an account uses this e-mail, a verification code has been sent to it.',
        data: { code_sent: true },
      })
      const [mail] = await outbox(ctx.app, user.email)
      expect(mail).toMatchObject({ to: user.email, channel: 'email', purpose: 'reset' })
      expect(await outbox(ctx.app, 'no-account@example.com')).toEqual([])
      ctx.clock.advance(61_000)
    })

    it('checks a code without using it up', async () => {
      const { user } = await signUp(ctx)
      await post('send/verification-code', { email: user.email })
      const code = await lastCode(ctx.app, user.email)
      const check = async (email: string, c: string) => {
        const res = await post('check/verification-code', { email, verification_code: c })
        expect(res.status).toBe(200)
        return v.parse(CodeCheckReplySchema, await res.json()).data.is_valid
      }
      expect(await check(user.email, code)).toBe(true)
      expect(await check(user.email, code)).toBe(true)
      expect(await check(user.email, wrongCode(code))).toBe(false)
      expect(await check('no-account@example.com', code)).toBe(false)
      const missing = await post('check/verification-code', { email: user.email })
      expect(missing.status).toBe(422)
      ctx.clock.advance(61_000)
    })

    it('resets the password and signs every device out', async () => {
      const { user, token } = await signUp(ctx)
      const second = await signIn(ctx, { username: user.username, password: user.password })
      await post('send/verification-code', { email: user.email })
      const code = await lastCode(ctx.app, user.email)
      const reset = await post('reset-password?local=en', {
        email: user.email,
        verification_code: code,
        password: 'brand-new-pass',
        password_confirmation: 'brand-new-pass',
      })
      expect(reset.status).toBe(200)
      expect(await reset.json()).toEqual({
        message: 'Your password has been changed. Please sign in with the new password.',
      })
      for (const t of [token, second]) expect((await profile(t)).status).toBe(401)

      const old = await post('login?check=1', { username: user.username, password: user.password })
      expect(old.status).toBe(422)
      const fresh = await signIn(ctx, { username: user.username, password: 'brand-new-pass' })
      expect((await profile(fresh)).status).toBe(200)

      // The code is used up.
      const again = await post('reset-password', {
        email: user.email,
        verification_code: code,
        password: 'another-pass-1',
        password_confirmation: 'another-pass-1',
      })
      expect(again.status).toBe(422)
    })

    it('refuses a wrong code and leaves the password alone', async () => {
      const { user } = await signUp(ctx)
      await post('send/verification-code', { email: user.email })
      const code = await lastCode(ctx.app, user.email)
      const res = await post('reset-password', {
        email: user.email,
        verification_code: wrongCode(code),
        password: 'brand-new-pass',
        password_confirmation: 'brand-new-pass',
      })
      expect(res.status).toBe(422)
      expect((await body(res)).message).toBe('The verification code is incorrect.')
      await signIn(ctx, { username: user.username, password: user.password })
    })
  })

  describe('sessions', () => {
    it('logout revokes that token only', async () => {
      const { user, token } = await signUp(ctx)
      const other = await signIn(ctx, { username: user.username, password: user.password })
      const res = await post('logout?local=en', {}, token)
      expect(res.status).toBe(200)
      expect(await res.json()).toEqual({ message: 'You have been signed out.' })
      expect((await profile(token)).status).toBe(401)
      expect((await post('logout', {}, token)).status).toBe(401)
      expect((await profile(other)).status).toBe(200)
    })

    it('answers 401 with a message on protected calls without a live token', async () => {
      const calls = [
        () => ctx.app.request('/api/profile'),
        () => ctx.app.request('/api/profile', { headers: { authorization: 'Bearer nope' } }),
        () =>
          ctx.app.request('/api/profile', {
            headers: { authorization: `Bearer ${'A'.repeat(43)}` },
          }),
        () => ctx.app.request('/api/profile', { headers: { authorization: 'Basic abc' } }),
        () => post('logout'),
        () => post('change/locale', { locale: 'ar' }),
        () => post('change-currency', { currency: 'LBP' }),
      ]
      for (const call of calls) {
        const res = await call()
        expect(res.status).toBe(401)
        expect(res.headers.get('www-authenticate')).toBe('Bearer')
        expect(await res.json()).toEqual({ message: 'You have to sign in.' })
      }
      const ar = await ctx.app.request('/api/profile?local=ar')
      expect(await ar.json()).toEqual({ message: 'يجب عليك تسجيل الدخول.' })
    })

    it('records when a session was last used', async () => {
      const { token } = await signUp(ctx)
      const hash = hashToken(token)
      const before = await ctx.db
        .selectFrom('sessions')
        .select('last_used_at')
        .where('token_hash', '=', hash)
        .executeTakeFirstOrThrow()
      ctx.clock.advance(5 * MINUTE)
      await profile(token)
      const after = await ctx.db
        .selectFrom('sessions')
        .select('last_used_at')
        .where('token_hash', '=', hash)
        .executeTakeFirstOrThrow()
      expect(Date.parse(after.last_used_at)).toBeGreaterThan(Date.parse(before.last_used_at))
    })
  })

  describe('the development outbox', () => {
    it('matches a phone however it is written', async () => {
      const user = freshUser()
      await post('signup?validate=1', user)
      const digits = user.phone_number.slice(1)
      for (const to of [
        `%2B${digits}`,
        `+${digits}`, // a raw + in a query string reads as a space
        digits,
        `00${digits}`,
        `0${digits.slice(3)}`,
      ]) {
        const res = await ctx.app.request(`/api/dev/outbox?to=${to}`)
        const { data } = (await res.json()) as { data: { to: string }[] }
        expect(
          data.map((d) => d.to),
          to,
        ).toEqual([user.phone_number])
      }
      ctx.clock.advance(61_000)
    })

    it('is absent in production, and unless DEV_OUTBOX asks for it', async () => {
      const status = async (overrides: Partial<Config>) =>
        (await ctx.appWith(overrides).request('/api/dev/outbox')).status
      expect(await status({ nodeEnv: 'production', devOutbox: true })).toBe(404)
      expect(await status({ nodeEnv: 'development', devOutbox: false })).toBe(404)
      expect(await status({ nodeEnv: 'test', devOutbox: false })).toBe(404)
      expect(await status({ nodeEnv: 'development', devOutbox: true })).toBe(200)
    })

    it('never shows the codes of a channel that a real sender delivers', async () => {
      const { user } = await signUp(ctx)
      await post('send/verification-code', { email: user.email })
      const delivered: string[] = []
      const real = (kind: 'whatsapp' | 'smtp'): Sender => ({
        kind,
        send: async (m) => void delivered.push(m.to),
      })
      const outboxOnly = createApp({
        db: ctx.db,
        config: ctx.config,
        clock: ctx.clock,
        passwords: testPasswords,
        delivery: {
          phone: real('whatsapp'),
          email: createDelivery(ctx.config, ctx.db, silent).email,
        },
      })
      // WhatsApp is real: the phone's codes (kept earlier) stay hidden, the e-mail's show.
      const all = (await (await outboxOnly.request('/api/dev/outbox')).json()) as {
        data: { channel: string }[]
      }
      expect(all.data.length).toBeGreaterThan(0)
      expect(new Set(all.data.map((d) => d.channel))).toEqual(new Set(['email']))
      const phone = await outboxOnly.request(
        `/api/dev/outbox?to=${encodeURIComponent(user.phone_number)}`,
      )
      expect(((await phone.json()) as { data: unknown[] }).data).toEqual([])
      expect((await outbox(outboxOnly, user.email)).length).toBeGreaterThan(0)

      const bothReal = createApp({
        db: ctx.db,
        config: ctx.config,
        clock: ctx.clock,
        passwords: testPasswords,
        delivery: { phone: real('whatsapp'), email: real('smtp') },
      })
      expect((await bothReal.request('/api/dev/outbox')).status).toBe(404)
      ctx.clock.advance(61_000)
    })
  })
})
