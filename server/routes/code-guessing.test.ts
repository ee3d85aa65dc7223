import * as v from 'valibot'
import { expect, it } from 'vitest'
import { CodeCheckReplySchema, ResetSentReplySchema } from '../../src/contract/auth'
import { lastCode, outbox, postForm, signUp, wrongCode } from '../test/accounts'
import { describeEachDatabase } from '../test/context'

const MINUTE = 60_000
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR

/*
 * Password-reset codes are 4 digits. Wrong codes are counted per e-mail and address together
 * (an attacker's address is held long before the account is) and per e-mail as a whole (30 a
 * day, 60 in 30 days, from any number of addresses), which bounds an attacker's chance.
 */
describeEachDatabase('guessing codes', (ctx) => {
  const app = () => ctx.appWith({ trustProxy: 1 })
  const from = (ip: string, path: string, fields: Record<string, string>) =>
    postForm(app(), path, fields, { headers: { 'x-forwarded-for': ip } })
  const send = (ip: string, email: string) => from(ip, 'send/verification-code?local=en', { email })
  const check = (ip: string, email: string, code: string) =>
    from(ip, 'check/verification-code?local=en', { email, verification_code: code })
  const valid = async (res: Response) =>
    v.parse(CodeCheckReplySchema, await res.json()).data.is_valid
  const message = async (res: Response) => ((await res.json()) as { message: string }).message
  /** A reset e-mail still goes while codes are held, with its link alone: `code_sent` false. */
  const codeSent = async (res: Response) =>
    v.parse(ResetSentReplySchema, await res.json()).data.code_sent
  /** What a held recipient's code check answers (a held check counts no failure). */
  const heldCheck = async (ip: string, email: string) => {
    const res = await check(ip, email, '0000')
    expect(res.status).toBe(429)
    return res
  }
  const notices = async (email: string) =>
    (await outbox(ctx.app, email)).filter((m) => m.purpose === 'notice')

  /**
   * Wrong codes from `ip` until it is refused, or the clock reaches `deadline` (waits for a new
   * code can carry it past); returns how many were compared. Each guess is surely wrong (a
   * fixed guess hits a random code 1 time in 10,000, which clears the address's count).
   */
  async function guessUntilRefused(
    ip: string,
    email: string,
    limit = 100,
    deadline = Infinity,
  ): Promise<number> {
    let compared = 0
    let wrong = ''
    for (let i = 0; i < limit; i++) {
      if (compared % 5 === 0) {
        // Five wrong tries kill a code: a new one, within the sending limits.
        for (;;) {
          ctx.clock.advance(61_000)
          const sent = await send(ip, email)
          if (sent.status === 200) {
            if (!(await codeSent(sent))) return compared
            // An e-mail without an account gets no code: any guess is wrong.
            const [latest] = await outbox(ctx.app, email)
            wrong = latest ? wrongCode(latest.code) : '0000'
            break
          }
          expect(sent.status).toBe(429)
          ctx.clock.advance(Number(sent.headers.get('retry-after')) * 1000)
        }
      }
      if (ctx.clock.now().getTime() >= deadline) return compared
      const res = await check(ip, email, wrong)
      if (res.status === 429) return compared + 1
      expect(res.status).toBe(200)
      compared++
    }
    return compared
  }

  it('never holds up a customer who mistypes a few times and then gets it right', async () => {
    const { user } = await signUp(ctx)
    for (let round = 0; round < 6; round++) {
      ctx.clock.advance(15 * MINUTE)
      expect((await send('198.51.100.20', user.email)).status).toBe(200)
      const code = await lastCode(ctx.app, user.email)
      for (let i = 0; i < 4; i++) {
        expect(await valid(await check('198.51.100.20', user.email, wrongCode(code)))).toBe(false)
      }
      expect(await valid(await check('198.51.100.20', user.email, code))).toBe(true)
    }
    expect(await notices(user.email)).toEqual([])
  })

  it("holds an attacker's address, not the owner's, and tells the owner once", async () => {
    const { user } = await signUp(ctx)
    // Ten wrong codes an hour from one address: the tenth starts its wait.
    expect(await guessUntilRefused('203.0.113.50', user.email)).toBe(10)
    const held = await heldCheck('203.0.113.50', user.email)
    expect(await message(held)).toMatch(/^Too many wrong codes. Please try again in \d+ minutes\.$/)
    const [notice, ...more] = await notices(user.email)
    expect(more).toEqual([])
    expect(notice?.body).toMatch(/^Several wrong verification codes were entered for your account/)

    // The owner, elsewhere, resets the password as usual.
    ctx.clock.advance(61_000)
    expect((await send('198.51.100.21', user.email)).status).toBe(200)
    const code = await lastCode(ctx.app, user.email)
    const reset = await from('198.51.100.21', 'reset-password', {
      email: user.email,
      verification_code: code,
      password: 'brand-new-pass-1',
      password_confirmation: 'brand-new-pass-1',
    })
    expect(reset.status).toBe(200)

    // The attacker's waits grow: 15 a day from one address, then the rest of the day.
    ctx.clock.advance(HOUR)
    expect(await guessUntilRefused('203.0.113.50', user.email)).toBe(5)
    const day = await heldCheck('203.0.113.50', user.email)
    expect(await message(day)).toMatch(/^Too many wrong codes. Please try again in \d+ hours\.$/)
    expect(Number(day.headers.get('retry-after'))).toBeGreaterThan(20 * 3600)
    // Still only the one notice today.
    expect((await notices(user.email)).length).toBe(1)
  })

  it('tells the owner once in 24 hours, also when the holds fall either side of midnight', async () => {
    const { user } = await signUp(ctx)
    // Half an hour before midnight (UTC), where a day's window that starts at midnight ends.
    ctx.clock.advance(DAY - (ctx.clock.now().getTime() % DAY) - 30 * MINUTE)
    expect(await guessUntilRefused('203.0.113.70', user.email)).toBe(10)
    expect((await notices(user.email)).length).toBe(1)
    // Past midnight, another address is held too: the owner knows already.
    ctx.clock.advance(HOUR)
    expect(ctx.clock.now().getTime() % DAY).toBeLessThan(2 * HOUR)
    expect(await guessUntilRefused('203.0.113.71', user.email)).toBe(10)
    expect((await notices(user.email)).length).toBe(1)
  })

  it('holds the account as a whole past 30 a day or 60 in 30 days, from any addresses', async () => {
    const { user } = await signUp(ctx)
    let compared = 0
    for (const ip of ['203.0.113.60', '203.0.113.61', '203.0.113.62']) {
      compared += await guessUntilRefused(ip, user.email)
    }
    expect(compared).toBe(30)
    // Now the owner waits too (for the day), and is told.
    // (Their reset e-mail still goes, with its link alone.)
    ctx.clock.advance(61_000)
    expect(await codeSent(await send('198.51.100.22', user.email))).toBe(false)
    const owner = await heldCheck('198.51.100.22', user.email)
    expect(await message(owner)).toMatch(/in \d+ hours\.$/)
    expect((await notices(user.email)).length).toBe(1)

    ctx.clock.advance(DAY)
    for (const ip of ['203.0.113.63', '203.0.113.64', '203.0.113.65']) {
      compared += await guessUntilRefused(ip, user.email)
    }
    expect(compared).toBe(60)
    const month = await heldCheck('198.51.100.22', user.email)
    expect(await message(month)).toMatch(/^Too many wrong codes. Please try again in 2\d days\.$/)
    expect((await notices(user.email)).length).toBe(2)
  })

  it('gives an attacker with endless addresses at most 60 guesses in 30 days: under 1 %', async () => {
    const { user } = await signUp(ctx)
    const start = ctx.clock.now().getTime()
    let compared = 0
    let address = 0
    while (ctx.clock.now().getTime() - start < 30 * DAY) {
      address++
      const ip = `2001:db8:${address.toString(16)}::1`
      // Only the guesses of these 30 days: a wait for a new code near the end can pass them.
      compared += await guessUntilRefused(ip, user.email, 100, start + 30 * DAY)
      const next = `2001:db8:${(address + 1).toString(16)}::1`
      ctx.clock.advance(61_000)
      const probe = await send(next, user.email)
      if (probe.status === 200 && !(await codeSent(probe))) {
        // The account as a whole is held: come back when it is not.
        const res = await heldCheck(next, user.email)
        ctx.clock.advance(Number(res.headers.get('retry-after') ?? 60) * 1000)
      }
    }
    expect(compared).toBeLessThanOrEqual(60)
    // Each guess hits with probability at most 1/9996 (a code has 10,000 values and survives
    // 5 wrong tries), so the chance of a hit in 30 days is at most 60/9996 = 0.6 %.
    expect(compared / 9996).toBeLessThan(0.01)
  })

  it('lets the owner back in once a new password ends guessing at the sign-in codes', async () => {
    // Someone with the password guesses at the phone's sign-in codes from many addresses.
    const { user } = await signUp(ctx)
    const creds = { username: user.username, password: user.password }
    const login = (ip: string, query: string, fields: Record<string, string> = {}) =>
      from(ip, `login?${query}&local=en`, { ...creds, ...fields })
    let held = false
    for (let a = 0; a < 10 && !held; a++) {
      const ip = `203.0.113.${150 + a}`
      for (let i = 0; i < 12 && !held; i++) {
        if (i % 5 === 0) {
          ctx.clock.advance(13 * MINUTE)
          const sent = await login(ip, 'check=1')
          if (sent.status === 429) break
        }
        const res = await login(ip, 'auth=1', { verification_code: '0000' })
        if (res.status === 429) held = (await message(res)).includes('hours')
      }
    }
    expect(held).toBe(true)
    const owner = await login('198.51.100.30', 'check=1')
    expect(owner.status).toBe(429)
    // The owner resets the password by e-mail: the phone's codes work again at once.
    ctx.clock.advance(61_000)
    expect((await send('198.51.100.30', user.email)).status).toBe(200)
    const reset = await from('198.51.100.30', 'reset-password', {
      email: user.email,
      verification_code: await lastCode(ctx.app, user.email),
      password: 'owner-again-1',
      password_confirmation: 'owner-again-1',
    })
    expect(reset.status).toBe(200)
    const again = await from('198.51.100.30', 'login?check=1', {
      username: user.username,
      password: 'owner-again-1',
    })
    expect(again.status).toBe(200)
    ctx.clock.advance(61_000)
  })

  it('tells nobody when the e-mail has no account', async () => {
    const email = 'nobody.here@example.com'
    expect(await guessUntilRefused('203.0.113.70', email)).toBe(10)
    expect(await outbox(ctx.app, email)).toEqual([])
  })
})
