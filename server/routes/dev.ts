import { Hono } from 'hono'
import { ENDPOINTS as E } from '../../src/contract/endpoints'
import { normalisePhone } from '../../src/domain/phone'
import type { Channel } from '../adapters/delivery'
import { readOutbox } from '../adapters/outbox'
import { readPushOutbox } from '../adapters/push'
import type { AppEnv } from '../http/env'
import { findUserByUsername } from '../services/users'

/** An e-mail in lower case, or a phone in E.164 however it was written (+961…, 961…, %2B961…). */
function recipient(raw: string): string {
  const text = raw.trim()
  if (text.includes('@')) return text.toLowerCase()
  return normalisePhone(text) ?? text
}

/**
 * Development and tests only (mounted by createApp when DEV_OUTBOX=1, NODE_ENV is not
 * production, and at least one channel has no real sender): the codes the local sender
 * "delivered", newest first, for `channels` only.
 */
export function devRoutes(channels: Channel[]) {
  return new Hono<AppEnv>().get(E.devOutbox.path, async (c) => {
    const to = c.req.query('to')
    const data = await readOutbox(c.var.db, {
      to: to === undefined ? undefined : recipient(to),
      channels,
    })
    return c.json({ data })
  })
}

/**
 * Development and tests only (mounted when pushes go to the local outbox): the pushes a user
 * was sent, newest first, each `message` as FCM would deliver it to the browser.
 */
export const devPushRoutes = new Hono<AppEnv>().get(E.devPush.path, async (c) => {
  const username = c.req.query('user') ?? ''
  const user = await findUserByUsername(c.var.db, username)
  return c.json({ data: user ? await readPushOutbox(c.var.db, user.id) : [] })
})
