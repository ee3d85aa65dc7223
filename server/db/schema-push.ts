import type { Generated } from 'kysely'

/** A push to send after its change committed; retried with backoff until done. */
export interface PushJobColumns {
  id: Generated<number>
  /** JSON: the message in each language, `{en, ar}`. */
  message: string
  attempts: Generated<number>
  next_at: string
  done_at: string | null
  created_at: string
  /** The request or operator command that made it (its log lines' requestId). */
  request_id: string | null
}
