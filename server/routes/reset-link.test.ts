import * as v from 'valibot'
import { expect, it } from 'vitest'
import { ResetSentReplySchema } from '../../src/contract/auth'
import { lastCode, outbox, postForm, signIn, signUp, wrongCode } from '../test/accounts'
import { describeEachDatabase } from '../test/context'

/*
 * The reset e-mail's link: a long random token that stands for the 4-digit code, so wrong
 * codes from anyone (which pause the e-mail's codes) never keep the owner from a new password.
 */
describeEachDatabase('password reset by link', (ctx) => {
  // Addresses from X-Forwarded-For; sending limits out of the way of the guessing below.
  const app = () =>
    ctx.appWith({
      trustProxy: 1,
      codeLimits: { resendMs: 1000, perRecipientPerHour: 1000, perIpPerHour: 1000, perHour: 1e6 },
    })
  const from = (ip: string, path: string, fields: Record<string, string>) =>
    postForm(app(), path, fields, { headers: { 'x-forwarded-for': ip } })
  const owner = '198.51.100.40'
  const message = async (res: Response) => ((await res.json()) as { message: string }).message

  /** Asks for a reset e-mail; returns the reply and the link's token from the e-mail. */
  async function askReset(email: string, ip = owner) {
    ctx.clock.advance(2000)
    const res = await from(ip, 'send/verification-code?local=en', { email })
    expect(res.status).toBe(200)
    const reply = v.parse(ResetSentReplySchema, await res.json())
    const [mail] = await outbox(ctx.app, email)
    const link = /(\S+)\/#\/reset-password\/([A-Za-z0-9_-]{43})\n/.exec(mail!.body)
    expect(link, mail!.body).not.toBeNull()
    return { reply, body: mail!.body, origin: link![1]!, token: link![2]! }
  }

  const useLink = (token: string, password: string, query = 'local=en', confirmation = password) =>
    from(owner, `reset-password-link?${query}`, {
      token,
      password,
      password_confirmation: confirmation,
    })

  const profile = (token: string) =>
    ctx.app.request('/api/profile', { headers: { authorization: `Bearer ${token}` } })

  it('mails a code and a link; the link sets the password once and signs every device out', async () => {
    const { user, token: session } = await signUp(ctx)
    const { reply, body, origin, token } = await askReset(user.email)
    expect(reply.data.code_sent).toBe(true)
    const code = await lastCode(ctx.app, user.email)
    expect(body).toContain(`Your verification code is ${code}.`)
    expect(body).toContain('it works once, for 30 minutes')
    // No PUBLIC_URL in tests: the address the request came to.
    expect(origin).toBe('http://localhost')
    // Only the token's hash is kept.
    const rows = await ctx.db.selectFrom('reset_links').selectAll().execute()
    expect(rows.map((r) => r.token_hash)).not.toContain(token)
    expect(JSON.stringify(rows)).not.toContain(token)

    const mismatch = await useLink(token, 'new-pass-by-link-1', 'local=en', 'something-else')
    expect(mismatch.status).toBe(422)
    expect(await message(mismatch)).toBe('The password confirmation does not match')

    const done = await useLink(token, 'new-pass-by-link-1')
    expect(done.status).toBe(200)
    expect(await message(done)).toBe(
      'Your password has been changed. Please sign in with the new password.',
    )
    expect((await profile(session)).status).toBe(401)
    await signIn(ctx, { username: user.username, password: 'new-pass-by-link-1' })

    const again = await useLink(token, 'another-pass-2')
    expect(again.status).toBe(422)
    expect(await message(again)).toBe(
      'This link has already been used. Ask for a new password-reset e-mail if you need one.',
    )
    // The code of the same e-mail went with the reset: it sets nothing now.
    const byCode = await from(owner, 'reset-password?local=en', {
      email: user.email,
      verification_code: code,
      password: 'another-pass-2',
      password_confirmation: 'another-pass-2',
    })
    expect(byCode.status).toBe(422)
    await signIn(ctx, { username: user.username, password: 'new-pass-by-link-1' })
  })

  it('still resets after an attacker has spent every wrong code, and still gets mailed', async () => {
    const { user } = await signUp(ctx)
    const before = await askReset(user.email)
    // Wrong codes from three addresses until the e-mail as a whole is held (30 a day).
    let held = 0
    for (const ip of ['203.0.113.80', '203.0.113.81', '203.0.113.82']) {
      for (let tries = 0; tries < 20; tries++) {
        if (tries % 5 === 0) await askReset(user.email, ip)
        const res = await from(ip, 'check/verification-code?local=en', {
          email: user.email,
          verification_code: wrongCode(await lastCode(ctx.app, user.email)),
        })
        if (res.status === 429) break
        expect(res.status).toBe(200)
        held = tries
      }
    }
    expect(held).toBeGreaterThan(0)
    // The owner's right code is refused now, from anywhere.
    const now = await askReset(user.email)
    const code = await lastCode(ctx.app, user.email)
    const refused = await from(owner, 'check/verification-code?local=en', {
      email: user.email,
      verification_code: code,
    })
    expect(refused.status).toBe(429)
    expect(await message(refused)).toMatch(
      /^Too many wrong codes. Please try again in \d+ hours\.$/,
    )
    // ...but the e-mail still came, with a link and without the paused code, and said so.
    expect(now.reply).toEqual({
      message:
        'If an account uses this e-mail, a link to set a new password has been sent to it. Too many wrong codes were entered for this e-mail, so no code was sent: open the link in the e-mail.',
      data: { code_sent: false },
    })
    expect(now.body).not.toContain(code)
    expect(now.body).toContain('no code was sent this time')

    // The link mailed before the attack works whatever the counters say.
    expect((await useLink(before.token, 'owner-is-back-1')).status).toBe(200)
    await signIn(ctx, { username: user.username, password: 'owner-is-back-1' })
    // A reset ends the account's other links, the one mailed during the attack too.
    const later = await useLink(now.token, 'owner-is-back-2')
    expect(later.status).toBe(422)
    expect(await message(later)).toMatch(/^This link has already been used/)
    // And a link asked for now, while codes are still held, works as well.
    const fresh = await askReset(user.email)
    expect(fresh.reply.data.code_sent).toBe(false)
    expect((await useLink(fresh.token, 'owner-is-back-3')).status).toBe(200)
    await signIn(ctx, { username: user.username, password: 'owner-is-back-3' })
  })

  it('refuses an expired or unknown link, in the language of the request', async () => {
    const { user } = await signUp(ctx)
    const { token } = await askReset(user.email)
    ctx.clock.advance(30 * 60_000 + 1000)
    const expired = await useLink(token, 'too-late-pass-1')
    expect(expired.status).toBe(422)
    expect(await message(expired)).toBe(
      'This link has expired. Ask for a new password-reset e-mail.',
    )
    const arabic = await useLink(token, 'too-late-pass-1', 'local=ar')
    expect(await message(arabic)).toBe(
      'انتهت صلاحية هذا الرابط. اطلب رسالة جديدة لإعادة تعيين كلمة المرور.',
    )
    for (const wrong of ['', 'abc', token.replace(/^./, (c) => (c === 'A' ? 'B' : 'A'))]) {
      const res = await useLink(wrong, 'whatever-pass-1')
      expect(res.status).toBe(422)
      expect(await message(res)).toBe(
        'This link is not valid. Ask for a new password-reset e-mail.',
      )
    }
    // The password stayed.
    await signIn(ctx, { username: user.username, password: user.password })
  })

  it('resets once when one link is used by many requests at the same time', async () => {
    const { user } = await signUp(ctx)
    const { token } = await askReset(user.email)
    const passwords = Array.from({ length: 8 }, (_, i) => `parallel-pass-${i}`)
    const replies = await Promise.all(passwords.map((p) => useLink(token, p)))
    const statuses = replies.map((r) => r.status)
    expect(statuses.filter((s) => s === 200)).toHaveLength(1)
    expect(statuses.filter((s) => s === 422)).toHaveLength(passwords.length - 1)
    const winner = passwords[statuses.indexOf(200)]!
    await signIn(ctx, { username: user.username, password: winner })
    const used = await ctx.db
      .selectFrom('reset_links')
      .select('used_at')
      .where('user_id', '=', (qb) =>
        qb.selectFrom('users').select('id').where('username', '=', user.username),
      )
      .execute()
    expect(used.every((r) => r.used_at !== null)).toBe(true)
  })

  it('starts the link with PUBLIC_URL when it is set', async () => {
    const { user } = await signUp(ctx)
    ctx.clock.advance(2000)
    const shop = ctx.appWith({ publicUrl: 'https://shop.example.com' })
    expect((await postForm(shop, 'send/verification-code', { email: user.email })).status).toBe(200)
    const [mail] = await outbox(ctx.app, user.email)
    expect(mail!.body).toMatch(/\nhttps:\/\/shop\.example\.com\/#\/reset-password\/[\w-]{43}\n/)
  })
})
