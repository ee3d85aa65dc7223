import type { Kysely } from 'kysely'
import type { Locale } from '../../src/contract/common'
import type { MessagePayload } from '../../src/contract/site'
import type { Database } from '../db/schema'

/** Stores a contact-form message for the operator. Returns its id. */
export async function saveMessage(
  db: Kysely<Database>,
  payload: MessagePayload,
  meta: { locale: Locale; ip: string | null; now?: Date },
): Promise<number> {
  const row = await db
    .insertInto('messages')
    .values({
      name: payload.name,
      phone_number: payload.phone_number,
      message: payload.message,
      locale: meta.locale,
      ip: meta.ip,
      created_at: (meta.now ?? new Date()).toISOString(),
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  return row.id
}
