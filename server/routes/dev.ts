import { Hono } from 'hono'
import { normalisePhone } from '../../src/domain/phone'
import { readOutbox } from '../adapters/outbox'
import type { AppEnv } from '../http/env'

/** An e-mail in lower case, or a phone in E.164 however it was written (+961…, 961…, %2B961…). */
function recipient(raw: string): string {
  const text = raw.trim()
  if (text.includes('@')) return text.toLowerCase()
  return normalisePhone(text) ?? text
}

/**
 * Development and tests only (mounted by createApp while the local outbox is in use and
 * NODE_ENV is not production): the codes the local sender "delivered", newest first.
 */
export const devRoutes = new Hono<AppEnv>().get('/outbox', async (c) => {
  const to = c.req.query('to')
  const data = await readOutbox(c.var.db, to === undefined ? undefined : recipient(to))
  return c.json({ data })
})
