import { expect, it } from 'vitest'
import { signIn, signUp } from '../test/accounts'
import { describeEachDatabase } from '../test/context'
import { customer, get } from '../test/orders'

const DAY = 24 * 60 * 60_000

describeEachDatabase('session lifetime', (ctx) => {
  const sessionRows = (userId: number) =>
    ctx.db.selectFrom('sessions').select('id').where('user_id', '=', userId).execute()
  const userId = async (username: string) =>
    (
      await ctx.db
        .selectFrom('users')
        .select('id')
        .where('username', '=', username)
        .executeTakeFirstOrThrow()
    ).id

  it('defaults to 30 days unused and 180 days in all', () => {
    expect(ctx.config.sessions).toEqual({ idleMs: 30 * DAY, maxMs: 180 * DAY })
  })

  it('ends a session unused for the idle time: 401, and the row is gone', async () => {
    const { token, user } = await signUp(ctx)
    const id = await userId(user.username)
    ctx.clock.advance(29 * DAY)
    expect((await get(ctx.app, 'profile', token)).status).toBe(200)
    // Used a day before the limit: the 30 days start again.
    ctx.clock.advance(29 * DAY)
    expect((await get(ctx.app, 'profile', token)).status).toBe(200)
    ctx.clock.advance(30 * DAY)
    const res = await get(ctx.app, 'profile', token)
    expect(res.status).toBe(401)
    expect(res.headers.get('www-authenticate')).toBe('Bearer')
    expect(await sessionRows(id)).toEqual([])
  })

  it('ends a session at its maximum lifetime however much it is used', async () => {
    const app = ctx.appWith({ sessions: { idleMs: 2 * DAY, maxMs: 5 * DAY } })
    const { token, user } = await signUp(ctx)
    for (let day = 1; day < 5; day++) {
      ctx.clock.advance(DAY)
      expect((await get(app, 'profile', token)).status, `day ${day}`).toBe(200)
    }
    ctx.clock.advance(DAY)
    expect((await get(app, 'profile', token)).status).toBe(401)
    expect(await sessionRows(await userId(user.username))).toEqual([])
  })

  it('answers requests that come in together each for its own token', async () => {
    const a = await customer(ctx)
    const b = await customer(ctx)
    const gone = await customer(ctx)
    const logout = await ctx.app.request('/api/logout', {
      method: 'POST',
      headers: { authorization: `Bearer ${gone.token}` },
    })
    expect(logout.status).toBe(200)
    // One read of the sessions serves them all (services/sessions.ts): still one answer each.
    const tokens = [a.token, gone.token, b.token, a.token, 'x'.repeat(43), b.token]
    const replies = await Promise.all(tokens.map((token) => get(ctx.app, 'profile', token)))
    const seen = await Promise.all(
      replies.map(async (res) =>
        res.status === 200
          ? ((await res.json()) as { data: { username: string } }).data.username
          : res.status,
      ),
    )
    expect(seen).toEqual([
      a.user.username,
      401,
      b.user.username,
      a.user.username,
      401,
      b.user.username,
    ])
  })

  it('prunes expired and long-revoked sessions at the next sign-in', async () => {
    const { token, user } = await signUp(ctx)
    const id = await userId(user.username)
    const other = await signIn(ctx, { username: user.username, password: user.password })
    await ctx.app.request('/api/logout', {
      method: 'POST',
      headers: { authorization: `Bearer ${other}` },
    })
    expect((await sessionRows(id)).length).toBe(2)
    ctx.clock.advance(31 * DAY)
    // Neither token is presented again; the next sign-in (of anyone) clears both.
    const { user: someone } = await signUp(ctx)
    expect(await sessionRows(id)).toEqual([])
    expect((await sessionRows(await userId(someone.username))).length).toBe(1)
    expect((await get(ctx.app, 'profile', token)).status).toBe(401)
  })
})
