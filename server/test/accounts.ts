import * as v from 'valibot'
import { expect } from 'vitest'
import { CodeSentReplySchema, TokenReplySchema } from '../../src/contract/auth'
import type { App } from '../app'
import type { TestContext } from './context'

export interface Fields {
  [name: string]: string | undefined
}

/**
 * A multipart form post, as the storefront sends it (undefined fields are left out), with the
 * Origin a browser adds: the calls that send codes refuse cross-site posts.
 */
export function postForm(
  app: App,
  path: string,
  fields: Fields = {},
  { token, headers = {} }: { token?: string; headers?: Record<string, string> } = {},
) {
  const form = new FormData()
  for (const [k, value] of Object.entries(fields)) if (value !== undefined) form.append(k, value)
  return app.request(`/api/${path}`, {
    method: 'POST',
    body: form,
    headers: {
      origin: 'http://localhost',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...headers,
    },
  })
}

export interface OutboxItem {
  to: string
  channel: string
  purpose: string
  code: string
  body: string
  created_at: string
}

export async function outbox(app: App, to: string): Promise<OutboxItem[]> {
  const res = await app.request(`/api/dev/outbox?to=${encodeURIComponent(to)}`)
  expect(res.status).toBe(200)
  return ((await res.json()) as { data: OutboxItem[] }).data
}

export async function lastCode(app: App, to: string): Promise<string> {
  const [latest] = await outbox(app, to)
  if (!latest) throw new Error(`no code was sent to ${to}`)
  return latest.code
}

let counter = 0

/** Details nobody in this database has used yet. */
export function freshUser() {
  counter += 1
  const n = String(100_000 + counter)
  return {
    username: `user_${n}`,
    phone_number: `+96171${n}`,
    email: `user.${n}@example.com`,
    password: 'correct-horse-1',
  }
}

/** Sign-up through both calls; the code comes from the outbox. Returns the session token. */
export async function signUp(
  ctx: TestContext,
  user = freshUser(),
  { query = '' }: { query?: string } = {},
): Promise<{ token: string; user: ReturnType<typeof freshUser> }> {
  const started = await postForm(ctx.app, `signup?validate=1${query}`, user)
  expect(started.status, await started.clone().text()).toBe(200)
  v.parse(CodeSentReplySchema, await started.json())
  const code = await lastCode(ctx.app, user.phone_number)
  const done = await postForm(ctx.app, `signup?auth=1${query}`, {
    ...user,
    verification_code: code,
  })
  expect(done.status, await done.clone().text()).toBe(200)
  const { token } = v.parse(TokenReplySchema, await done.json())
  // Later sends to the same phone must not trip the 60-second rule.
  ctx.clock.advance(61_000)
  return { token, user }
}

/** Signs in by username through both calls. */
export async function signIn(
  ctx: TestContext,
  creds: { username?: string; phone_number?: string; password: string },
  { fcm_token }: { fcm_token?: string } = {},
): Promise<string> {
  const checked = await postForm(ctx.app, 'login?check=1', creds)
  expect(checked.status, await checked.clone().text()).toBe(200)
  const { data } = v.parse(CodeSentReplySchema, await checked.json())
  const code = await lastCode(ctx.app, data.phone_number)
  const done = await postForm(ctx.app, 'login?auth=1', {
    ...creds,
    verification_code: code,
    fcm_token,
  })
  expect(done.status, await done.clone().text()).toBe(200)
  ctx.clock.advance(61_000)
  return v.parse(TokenReplySchema, await done.json()).token
}

/** Any 4-digit code other than `code`. */
export const wrongCode = (code: string) => String((Number(code) + 1) % 10_000).padStart(4, '0')
