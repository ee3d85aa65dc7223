import type { Generated } from 'kysely'
import type { OperatorRole } from '../../src/contract/console'
import type { PushJobColumns } from './schema-push'

/* The console's accounts and sessions (migration 0020_operators, services/operators.ts). */

/** A console account (migration 0020_operators): apart from customers, with its second factor. */
export interface OperatorTable {
  id: Generated<number>
  username: string
  /** core/username-key.ts: what must be unique. */
  username_key: string
  role: OperatorRole
  /** scrypt, self-describing: see services/passwords.ts. */
  password_hash: string
  /** The TOTP secret (base32), sealed as the API tokens are; null until enrolled. */
  totp_sealed: string | null
  /** The last TOTP time step that signed in: its code is not accepted again. */
  totp_step: number | null
  created_at: string
  disabled_at: string | null
}

/** A recovery code, by its keyed hash; `used_at` once it signed in (it never does again). */
export interface OperatorRecoveryCodeTable {
  id: Generated<number>
  operator_id: number
  code_hash: string
  used_at: string | null
}

/** A console session: the cookie's SHA-256, idle expiry from `last_used_at`. */
export interface OperatorSessionTable {
  id: Generated<number>
  operator_id: number
  token_hash: string
  /** Where it signed in from (the address key), for the audit. */
  address: string
  created_at: string
  last_used_at: string
  revoked_at: string | null
  /** This device's push token for the operators' alerts (0024_operator_push), when given. */
  fcm_token: Generated<string | null>
  fcm_token_at: Generated<string | null>
  /** The console's language on this device when it gave the token: its alerts' language. */
  fcm_locale: Generated<string | null>
}

/** An alert to every operator's devices, sent after its change committed (services/push.ts). */
export type OperatorPushJobTable = PushJobColumns

/** What the local push sender "delivered" to an operator's device (development and tests). */
export interface OperatorPushOutboxTable {
  id: Generated<number>
  operator_id: number
  token: string
  message: string
  created_at: string
}

export interface ConsoleDatabase {
  operators: OperatorTable
  operator_recovery_codes: OperatorRecoveryCodeTable
  operator_sessions: OperatorSessionTable
  operator_push_jobs: OperatorPushJobTable
  operator_push_outbox: OperatorPushOutboxTable
}
