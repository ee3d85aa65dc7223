import { expect, it } from 'vitest'
import { postForm, signIn, signUp } from '../test/accounts'
import { runOperator, runOperatorWith } from '../test/cli'
import { describeEachDatabase, testPasswords } from '../test/context'
import { balanceOf, customer, get } from '../test/orders'

const run = runOperator

describeEachDatabase('operator CLI: accounts, sessions, wallet corrections', (ctx) => {
  const status = async (token: string) => (await get(ctx.app, 'profile', token)).status
  const audit = async (username: string) =>
    (
      await ctx.db
        .selectFrom('audit_log')
        .selectAll()
        .where('username', '=', username)
        .orderBy('id')
        .execute()
    ).map((r) => ({ ...r, details: JSON.parse(r.details) as Record<string, unknown> }))

  it('users:disable ends the sessions and refuses sign-in; users:enable undoes it', async () => {
    const { token, user } = await signUp(ctx)
    expect(await status(token)).toBe(200)

    const out = await run(ctx, 'users:disable', user.username, '--reason', 'fraud report', '--json')
    expect(out.stderr).toBe('')
    expect(out.code).toBe(0)
    expect(JSON.parse(out.stdout)).toEqual({
      username: user.username,
      disabled: true,
      was_disabled: false,
      sessions_revoked: 1,
    })
    expect(await status(token)).toBe(401)

    // The right password learns why; a wrong one learns nothing new.
    const creds = { username: user.username, password: user.password }
    const right = await postForm(ctx.app, 'login?check=1&local=en', creds)
    expect(right.status).toBe(422)
    expect(await right.json()).toEqual({
      message: 'This account has been disabled. Please contact support.',
    })
    const arabic = await postForm(ctx.app, 'login?check=1&local=ar', creds)
    expect(((await arabic.json()) as { message: string }).message).toBe(
      'تم إيقاف هذا الحساب. يُرجى التواصل مع الدعم.',
    )
    const wrong = await postForm(ctx.app, 'login?check=1', { ...creds, password: 'wrong-pass-1' })
    expect(((await wrong.json()) as { message: string }).message).toBe(
      'The username, phone number or password is incorrect',
    )

    const again = await run(ctx, 'users:disable', user.username)
    expect(again.stdout).toBe(`${user.username} was already disabled; 0 session(s) ended.\n`)

    const enabled = await run(ctx, 'users:enable', user.username)
    expect(enabled.code).toBe(0)
    expect(enabled.stdout).toBe(`Enabled ${user.username}.\n`)
    await signIn(ctx, creds)

    expect((await audit(user.username)).map((a) => [a.actor, a.action, a.details])).toEqual([
      [
        'test-operator',
        'users:disable',
        {
          reason: 'fraud report',
          sessions_revoked: 1,
          already_disabled: false,
          before: { disabled_at: null },
          after: { disabled_at: expect.any(String) as string },
        },
      ],
      [
        'test-operator',
        'users:disable',
        expect.objectContaining({ reason: '', sessions_revoked: 0, already_disabled: true }),
      ],
      [
        'test-operator',
        'users:enable',
        {
          already_enabled: false,
          before: { disabled_at: expect.any(String) },
          after: { disabled_at: null },
        },
      ],
    ])
    const listed = JSON.parse((await run(ctx, 'users:list', '--json')).stdout) as {
      username: string
      disabled_at: string | null
    }[]
    expect(listed.find((u) => u.username === user.username)?.disabled_at).toBeNull()
  })

  it('sessions:revoke signs an account out of every device; it can sign in again', async () => {
    const { token, user } = await signUp(ctx)
    const second = await signIn(ctx, { username: user.username, password: user.password })
    const out = await run(ctx, 'sessions:revoke', user.username.toUpperCase(), '--json')
    expect(out.code).toBe(0)
    expect(JSON.parse(out.stdout)).toEqual({ username: user.username, sessions_revoked: 2 })
    expect([await status(token), await status(second)]).toEqual([401, 401])
    const text = await run(ctx, 'sessions:revoke', user.username)
    expect(text.stdout).toBe(`Ended 0 session(s) of ${user.username}.\n`)
    expect(
      await status(await signIn(ctx, { username: user.username, password: user.password })),
    ).toBe(200)
    expect((await audit(user.username)).map((a) => a.details)).toEqual([
      { sessions_revoked: 2, before: { sessions: 2 }, after: { sessions: 0 } },
      { sessions_revoked: 0, before: { sessions: 0 }, after: { sessions: 0 } },
    ])
  })

  it('users:set-password sets a generated or a given password and ends the sessions', async () => {
    const { token, user } = await signUp(ctx)
    const generated = await run(ctx, 'users:set-password', user.username, '--json')
    expect(generated.code).toBe(0)
    const { password, sessions_revoked } = JSON.parse(generated.stdout) as {
      password: string
      sessions_revoked: number
    }
    expect(password).toMatch(/^[A-Za-z0-9_-]{24}$/)
    expect(sessions_revoked).toBe(1)
    expect(await status(token)).toBe(401)
    const old = await postForm(ctx.app, 'login?check=1', {
      username: user.username,
      password: user.password,
    })
    expect(old.status).toBe(422)
    await signIn(ctx, { username: user.username, password })

    const given = await runOperatorWith(
      ctx,
      { stdin: 'chosen-by-operator-1\n' },
      'users:set-password',
      user.username,
      '--password-stdin',
    )
    expect(given.code).toBe(0)
    expect(given.stdout).toBe(`Set the password of ${user.username}; 1 session(s) ended.\n`)
    expect(given.stdout).not.toContain('chosen-by-operator-1')
    const row = await ctx.db
      .selectFrom('users')
      .select('password_hash')
      .where('username', '=', user.username)
      .executeTakeFirstOrThrow()
    expect(await testPasswords.verify('chosen-by-operator-1', row.password_hash)).toBe(true)

    const short = await runOperatorWith(
      ctx,
      { stdin: 'short\n' },
      'users:set-password',
      user.username,
      '--password-stdin',
    )
    expect(short.code).toBe(2)
    expect(short.stderr).toContain('one line of 8 to')

    const trail = await audit(user.username)
    expect(trail.map((a) => a.details)).toEqual([
      { generated: true, sessions_revoked: 1 },
      { generated: false, sessions_revoked: 1 },
    ])
    expect(JSON.stringify(trail)).not.toContain(password)
    expect(JSON.stringify(trail)).not.toContain('chosen-by-operator-1')
  })

  it('wallet:debit corrects a balance with a history line and a notification, never below zero', async () => {
    const { token, user } = await customer(ctx, { balance: '30', locale: 'ar' })
    const out = await run(
      ctx,
      'wallet:debit',
      user.username,
      '12.5',
      '--reason',
      'Duplicate top-up',
      '--json',
    )
    expect(out.stderr).toBe('')
    expect(out.code).toBe(0)
    expect(JSON.parse(out.stdout)).toEqual({
      username: user.username,
      debited: 12.5,
      currency: 'USD',
      balance: 17.5,
      reason: 'Duplicate top-up',
    })
    const log = await ctx.db
      .selectFrom('wallet_logs')
      .select(['status', 'name', 'previous_balance', 'value', 'current_balance'])
      .where('user_id', '=', user.id)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow()
    expect(log).toEqual({
      status: 'Discounted',
      name: 'Duplicate top-up',
      previous_balance: 30_000_000n,
      value: 12_500_000n,
      current_balance: 17_500_000n,
    })
    const note = await ctx.db
      .selectFrom('notifications')
      .select(['title', 'description'])
      .where('user_id', '=', user.id)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow()
    expect(note.title).toBe('تم تصحيح رصيد محفظتك')
    expect(note.description).toContain('Duplicate top-up')
    expect((await (await get(ctx.app, 'profile', token)).json()) as unknown).toMatchObject({
      data: { new_notifications_count: 1, balance: 17.5 },
    })

    const tooMuch = await run(
      ctx,
      'wallet:debit',
      user.username,
      '17.51',
      '--reason',
      'x',
      '--json',
    )
    expect(tooMuch.code).toBe(1)
    expect(JSON.parse(tooMuch.stderr)).toEqual({
      error: `Cannot debit 17.51 USD: the balance of ${user.username} is 17.5 USD, and a wallet never goes below zero.`,
    })
    expect(await balanceOf(ctx, user.id)).toBe(17_500_000n)

    const all = await run(ctx, 'wallet:debit', user.username, '17.5', '--reason', 'Close account')
    expect(all.stdout).toBe(`Debited 17.5 USD from ${user.username}: balance 0 USD.\n`)
    expect(await balanceOf(ctx, user.id)).toBe(0n)

    for (const argv of [
      ['wallet:debit', user.username, '5'],
      ['wallet:debit', user.username, '-5', '--reason', 'x'],
      ['wallet:debit', user.username, 'ten', '--reason', 'x'],
    ]) {
      expect((await run(ctx, ...argv)).code, argv.join(' ')).toBe(2)
    }
    expect((await run(ctx, 'wallet:debit', 'nobody', '5', '--reason', 'x')).code).toBe(1)
    expect((await audit(user.username)).map((a) => [a.action, a.details])).toEqual([
      [
        'wallet:debit',
        {
          amount: 12.5,
          currency: 'USD',
          reason: 'Duplicate top-up',
          before: { balance: 30 },
          after: { balance: 17.5 },
        },
      ],
      [
        'wallet:debit',
        {
          amount: 17.5,
          currency: 'USD',
          reason: 'Close account',
          before: { balance: 17.5 },
          after: { balance: 0 },
        },
      ],
    ])
  })

  it('audit:list shows the trail newest first, for one user or all', async () => {
    const { user } = await signUp(ctx)
    await run(ctx, 'sessions:revoke', user.username)
    await run(ctx, 'users:disable', user.username)
    const mine = await run(ctx, 'audit:list', '--user', user.username, '--json')
    expect(mine.code).toBe(0)
    expect(
      (JSON.parse(mine.stdout) as { action: string; actor: string }[]).map((a) => a.action),
    ).toEqual(['users:disable', 'sessions:revoke'])
    const text = await run(ctx, 'audit:list', '--limit', '1')
    expect(text.stdout.split('\n')[0]).toMatch(/^id\s+created_at\s+actor\s+action\s+username/)
    expect(text.stdout).toContain('users:disable')
    expect((await run(ctx, 'audit:list', '--limit', '0')).code).toBe(2)
    expect((await run(ctx, 'audit:list', '--user', 'nobody')).code).toBe(1)
  })

  it('every new command has --json and --help, and needs its arguments', async () => {
    for (const name of [
      'users:disable',
      'users:enable',
      'users:set-password',
      'sessions:revoke',
      'wallet:debit',
    ]) {
      const missing = await run(ctx, name)
      expect(missing.code, name).toBe(2)
      expect(missing.stderr, name).toContain(`Usage: npm run -s operator -- ${name}`)
      expect((await run(ctx, name, '--help')).code, name).toBe(0)
    }
  })
})
