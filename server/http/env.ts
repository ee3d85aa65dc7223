import type { Kysely } from 'kysely'
import type { Locale } from '../../src/contract/common'
import type { Delivery } from '../adapters/delivery'
import type { Provider } from '../adapters/provider'
import type { Clock } from '../clock'
import type { Config } from '../config'
import type { Database, UserRow } from '../db/schema'
import type { Logger } from '../log'
import type { CatalogueRows } from '../services/catalogue-rows'
import type { PasswordHasher } from '../services/passwords'
import type { ReplyCache } from './reply-cache'

/** What every handler can read from `c.var`. Set per request by createApp. */
export interface AppVariables {
  db: Kysely<Database>
  config: Config
  logger: Logger
  /** The reply language, from the `local` query parameter (default en). */
  locale: Locale
  /** The time services go by (tests move it). */
  clock: Clock
  passwords: PasswordHasher
  /** How verification codes leave the server. */
  delivery: Delivery
  /** Player searches and order fulfilment. */
  provider: Provider
  /** The public replies kept in memory (http/reply-cache.ts). */
  replies: ReplyCache
  /** The catalogue rows orders are priced from, kept per content version. */
  catalogueRows: CatalogueRows
}

export type AppEnv = { Variables: AppVariables }

/**
 * How the caller proved who they are: a session of the storefront, or the account's API token
 * (a reseller's server; see http/auth.ts for what it may do).
 */
export type AuthKind = 'session' | 'api-token'

/** Routes behind `requireUser` (sessions only) also know who is asking. */
export type AuthEnv = {
  Variables: AppVariables & { user: UserRow; sessionId: number; auth: 'session' }
}

/**
 * Routes behind `requireUserOrApiToken` know who is asking, and how; for a session, also the
 * content version its read saw, after the request came in (services/sessions.ts).
 */
export type CallerEnv = {
  Variables: AppVariables & { user: UserRow; auth: AuthKind; contentVersion?: string }
}

/** Routes behind `optionalUser` know who is asking when the caller is signed in. */
export type MaybeAuthEnv = {
  Variables: AppVariables & { user?: UserRow; sessionId?: number; auth?: AuthKind }
}
