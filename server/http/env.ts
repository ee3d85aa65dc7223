import type { Kysely } from 'kysely'
import type { Locale } from '../../src/contract/common'
import type { Config } from '../config'
import type { Database } from '../db/schema'
import type { Logger } from '../log'

/** What every handler can read from `c.var`. Set per request by createApp. */
export interface AppVariables {
  db: Kysely<Database>
  config: Config
  logger: Logger
  /** The reply language, from the `local` query parameter (default en). */
  locale: Locale
}

export type AppEnv = { Variables: AppVariables }
