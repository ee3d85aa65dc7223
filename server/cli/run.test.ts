import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { ProfileReplySchema } from '../../src/contract/profile'
import { signIn } from '../test/accounts'
import { runOperator } from '../test/cli'
import { describeEachDatabase, testPasswords } from '../test/context'
import { COMMANDS } from './run'

const run = runOperator

describeEachDatabase('operator CLI', (ctx) => {
  it('users:create makes a company account that can sign in with company pricing', async () => {
    const out = await run(
      ctx,
      'users:create',
      '--username',
      'Globex',
      '--phone',
      '+961 71 555 001',
      '--email',
      'Ops@Globex.example',
      '--password',
      'globex-pass-1',
      '--type',
      'COMPANY',
      '--currency',
      'LBP',
      '--json',
    )
    expect(out.stderr).toBe('')
    expect(out.code).toBe(0)
    expect(JSON.parse(out.stdout)).toMatchObject({
      username: 'Globex',
      phone_number: '+96171555001',
      email: 'ops@globex.example',
      type: 'COMPANY',
      currency: 'LBP',
      balance: 0,
    })
    const token = await signIn(ctx, { username: 'globex', password: 'globex-pass-1' })
    const res = await ctx.app.request('/api/profile', {
      headers: { authorization: `Bearer ${token}` },
    })
    expect(v.parse(ProfileReplySchema, await res.json()).data).toMatchObject({
      type: 'COMPANY',
      currency: 'LBP',
    })
  })

  it('users:create needs no e-mail, defaults to a USD customer and prints a line', async () => {
    const out = await run(
      ctx,
      'users:create',
      '--username=walkin',
      '--phone=71555002',
      '--password=walkin-pass-1',
    )
    expect(out.code).toBe(0)
    const row = await ctx.db
      .selectFrom('users')
      .selectAll()
      .where('username', '=', 'walkin')
      .executeTakeFirstOrThrow()
    expect(out.stdout).toBe(`Created CUSTOMER account walkin (id ${row.id}, +96171555002).\n`)
    expect(row).toMatchObject({ email: null, type: 'CUSTOMER', currency: 'USD', balance: 0n })
    expect(await testPasswords.verify('walkin-pass-1', row.password_hash)).toBe(true)
  })

  it('users:create refuses bad or taken details with exit 1 and says why', async () => {
    const bad = await run(
      ctx,
      'users:create',
      '--username',
      'x y',
      '--phone',
      '12',
      '--email',
      'nope',
      '--password',
      'short',
    )
    expect(bad.code).toBe(1)
    expect(bad.stdout).toBe('')
    expect(bad.stderr).toContain('username: The username may contain only letters')
    expect(bad.stderr).toContain('phone_number: The phone number is not valid')
    expect(bad.stderr).toContain('email: Invalid email format')
    expect(bad.stderr).toContain('password: Password must be at least 8 characters long')

    const taken = await run(
      ctx,
      'users:create',
      '--username',
      'DEMO',
      '--phone',
      '+96170000002',
      '--password',
      'long-enough-1',
      '--json',
    )
    expect(taken.code).toBe(1)
    expect(JSON.parse(taken.stderr)).toEqual({
      error:
        'Invalid input:\n  username: This username is already taken\n  phone_number: This phone number is already registered',
      errors: {
        username: ['This username is already taken'],
        phone_number: ['This phone number is already registered'],
      },
    })
  })

  it('answers usage mistakes with exit 2 and the usage', async () => {
    for (const argv of [
      ['users:create', '--phone', '71555003', '--password', 'long-enough-1'],
      [
        'users:create',
        '--username',
        'a',
        '--phone',
        '71555003',
        '--password',
        'pw-long-1',
        '--type',
        'ADMIN',
      ],
      ['users:create', '--username', 'a', '--bogus', 'x'],
      ['users:set-type', 'demo'],
      ['users:set-type', 'demo', 'ADMIN'],
      ['users:list', 'extra'],
    ]) {
      const out = await run(ctx, ...argv)
      expect(out.code, argv.join(' ')).toBe(2)
      expect(out.stderr, argv.join(' ')).toContain(`Usage: npm run -s operator -- ${argv[0]}`)
    }
    const unknown = await run(ctx, 'users:delete', 'demo')
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toContain('Unknown command: users:delete')
    // Names every object has are no commands either.
    for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
      const inherited = await run(ctx, name)
      expect(inherited.code, name).toBe(2)
      expect(inherited.stderr, name).toContain(`Unknown command: ${name}`)
    }
    expect((await run(ctx)).code).toBe(2)
    const help = await run(ctx, 'help')
    expect(help.code).toBe(0)
    for (const name of Object.keys(COMMANDS)) expect(help.stdout).toContain(name)
    const commandHelp = await run(ctx, 'users:create', '--help')
    expect(commandHelp.code).toBe(0)
    expect(commandHelp.stdout).toContain('--username U')
  })

  it('users:set-type changes the type; an unknown user is exit 1', async () => {
    const out = await run(ctx, 'users:set-type', 'Demo', 'company', '--json')
    expect(out.code).toBe(0)
    expect(JSON.parse(out.stdout)).toMatchObject({ username: 'demo', type: 'COMPANY' })
    const back = await run(ctx, 'users:set-type', 'demo', 'CUSTOMER')
    expect(back.stdout).toBe('demo is now CUSTOMER (was COMPANY).\n')
    const missing = await run(ctx, 'users:set-type', 'nobody', 'COMPANY', '--json')
    expect(missing.code).toBe(1)
    expect(JSON.parse(missing.stderr)).toEqual({ error: 'No user named nobody.' })
  })

  it('users:list lists every account, as JSON or a table', async () => {
    const json = await run(ctx, 'users:list', '--json')
    expect(json.code).toBe(0)
    const users = JSON.parse(json.stdout) as { username: string; balance: number; type: string }[]
    expect(users.slice(0, 2)).toMatchObject([
      // The demo account starts with 100 USD and three orders (demo/seed-orders.ts).
      { username: 'demo', balance: 84.6155, type: 'CUSTOMER' },
      { username: 'acme', balance: 1000, type: 'COMPANY' },
    ])
    const text = await run(ctx, 'users:list')
    const lines = text.stdout.trim().split('\n')
    expect(lines[0]).toMatch(/^id\s+username\s+phone_number\s+email\s+type\s+currency/)
    expect(lines).toHaveLength(users.length + 1)
  })
})

describe('npm run operator', () => {
  const root = join(import.meta.dirname, '..', '..')
  const spawnCli = (args: string[], env: Record<string, string>) =>
    new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      // `npm run operator` is `tsx server/cli.ts`; this is the same under the test's Node.
      const child = spawn(process.execPath, ['--import', 'tsx', 'server/cli.ts', ...args], {
        cwd: root,
        env: { PATH: process.env.PATH ?? '', DATABASE_URL: '', ...env },
      })
      let stdout = ''
      let stderr = ''
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
      child.on('exit', (code) => resolve({ code, stdout, stderr }))
    })

  it('migrates the configured database, runs the command and sets the exit code', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'store-cli-'))
    try {
      const env = {
        SQLITE_PATH: join(dir, 'store.db'),
        TOKEN_SECRET: 'x'.repeat(32),
        PUBLIC_URL: 'https://shop.example.com',
      }
      const created = await spawnCli(
        [
          'users:create',
          '--username',
          'ops',
          '--phone',
          '71555010',
          '--password',
          'ops-pass-12',
          '--type',
          'COMPANY',
          '--json',
        ],
        env,
      )
      expect(created.stderr).toBe('')
      expect(created.code).toBe(0)
      expect(JSON.parse(created.stdout)).toMatchObject({ username: 'ops', type: 'COMPANY' })
      const listed = await spawnCli(['users:list', '--json'], env)
      expect(listed.code).toBe(0)
      expect((JSON.parse(listed.stdout) as { username: string }[]).map((u) => u.username)).toEqual([
        'ops',
      ])
      const wrong = await spawnCli(['users:set-type', 'ops'], env)
      expect(wrong.code).toBe(2)
      const badConfig = await spawnCli(['users:list'], { ...env, LBP_RATE: 'lots' })
      expect(badConfig.code).toBe(1)
      expect(badConfig.stderr).toContain('LBP_RATE')
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
    // Four processes, each compiling the CLI on start: 28 s on a machine busy with other work.
  }, 90_000)
})
