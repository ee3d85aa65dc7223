import { randomBytes } from 'node:crypto'
import type { Kysely } from 'kysely'
import type { Database } from '../db/schema'

// Per database handle and setting: a stored secret never changes once stored.
const read = new WeakMap<Kysely<Database>, Map<string, Promise<string>>>()

/**
 * A random 256-bit secret generated once and kept in the settings table under `setting`, so
 * every instance on the same database agrees on it (the first to store it wins a race).
 */
export function storedSecret(db: Kysely<Database>, setting: string): Promise<string> {
  let secrets = read.get(db)
  if (!secrets) read.set(db, (secrets = new Map()))
  let secret = secrets.get(setting)
  if (!secret) {
    secret = loadOrCreate(db, setting)
    secrets.set(setting, secret)
    secret.catch(() => secrets.delete(setting))
  }
  return secret
}

async function loadOrCreate(db: Kysely<Database>, setting: string): Promise<string> {
  await db
    .insertInto('settings')
    .values({ key: setting, value: randomBytes(32).toString('base64url') })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute()
  const row = await db
    .selectFrom('settings')
    .select('value')
    .where('key', '=', setting)
    .executeTakeFirstOrThrow()
  return row.value
}
