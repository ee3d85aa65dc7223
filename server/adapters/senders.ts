import type { Kysely } from 'kysely'
import type { Config } from '../config'
import type { Database } from '../db/schema'
import type { Logger } from '../log'
import type { Delivery } from './delivery'
import { createMailSender } from './mail'
import { createOutboxSender } from './outbox'
import { createWhatsAppSender } from './whatsapp'

/** The real senders where configured, the local outbox for the rest. */
export function createDelivery(
  config: Pick<Config, 'whatsapp' | 'smtp' | 'nodeEnv'>,
  db: Kysely<Database>,
  logger: Logger,
): Delivery {
  const outbox = createOutboxSender(db, logger, { logCodes: config.nodeEnv !== 'production' })
  return {
    phone: config.whatsapp ? createWhatsAppSender(config.whatsapp, { logger }) : outbox,
    email: config.smtp ? createMailSender(config.smtp) : outbox,
  }
}
