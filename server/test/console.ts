import { randomBytes } from 'node:crypto'
import { URI, type TOTP } from 'otpauth'
import { expect } from 'vitest'
import type { App } from '../app'
import { runOperator } from './cli'
import type { TestContext } from './context'

/* The console's tests: accounts made as the owner makes them, and calls as its pages make them. */

export interface ConsoleAccount {
  username: string
  password: string
  totp: TOTP
  recoveryCodes: string[]
}

/** A console account made as the owner makes one: users:create --role, its printed second factor. */
export async function consoleAccount(ctx: TestContext, role: 'owner' | 'operator') {
  const username = `op${randomBytes(4).toString('hex')}`
  const password = 'a long console password'
  const made = await runOperator(
    ctx,
    'users:create',
    '--role',
    role,
    '--username',
    username,
    '--password',
    password,
    '--json',
  )
  expect(made.code, made.stderr).toBe(0)
  const json = JSON.parse(made.stdout) as { otpauth_uri: string; recovery_codes: string[] }
  expect(json.otpauth_uri).toMatch(/^otpauth:\/\/totp\//)
  return {
    username,
    password,
    totp: URI.parse(json.otpauth_uri) as TOTP,
    recoveryCodes: json.recovery_codes,
  } satisfies ConsoleAccount
}

/** POST /api/admin/<path> as the console page sends it: JSON, same origin, the cookie. */
export function post(
  app: App,
  path: string,
  body: unknown,
  cookie?: string,
  origin = 'http://localhost',
) {
  return app.request(`/api/admin/${path}`, {
    method: 'POST',
    body: JSON.stringify(body),
    headers: {
      'content-type': 'application/json',
      origin,
      ...(cookie ? { cookie } : {}),
    },
  })
}

export const read = (app: App, path: string, cookie?: string) =>
  app.request(`/api/admin/${path}`, { headers: cookie ? { cookie } : {} })

/** The session cookie a reply set, as the browser sends it back. */
export function cookieOf(res: Response): string {
  const set = res.headers.get('set-cookie') ?? ''
  const pair = /console_session=[^;]+/.exec(set)
  expect(pair, set).not.toBeNull()
  return pair![0]
}

/** Signs in as the console's page does: the password and the authenticator's code of the moment. */
export async function signIn(
  ctx: TestContext,
  account: ConsoleAccount,
  second = account.totp.generate({ timestamp: ctx.clock.now().getTime() }),
  app = ctx.app,
) {
  const res = await post(app, 'sign-in', {
    username: account.username,
    password: account.password,
    code: second,
  })
  expect(res.status, await res.clone().text()).toBe(200)
  return cookieOf(res)
}

/** A fresh console account of `role` and a signed-in session of it. */
export async function signedIn(ctx: TestContext, role: 'owner' | 'operator' = 'operator') {
  const account = await consoleAccount(ctx, role)
  return { account, cookie: await signIn(ctx, account) }
}
